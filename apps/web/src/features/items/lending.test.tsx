import type { TBorrowRequest, TItem, TLoan } from '@circles/shared'
import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { dateInDays } from '@/lib/lending/dates'
import { testItem } from '@/test/items'
import { ASK_ID, BEN, CARA, EXTENSION_ID, LOAN_ID, lendingOf, testAsk, testLoan } from '@/test/lending'
import { callCount, json, mockApi, sentBodies } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { ItemPage } from './routes/item-page'

const ITEM = testItem().id
const OTTO = { id: '55555555-5555-4555-8555-555555555555', name: 'Otto Owner' }
/** Otto's item: the test user is a member who does not own it. */
const ottos = {
  ownerId: OTTO.id,
  owner: { name: OTTO.name },
  circle: { name: 'Linden Street', adminId: OTTO.id },
}

function pressTwice(element: HTMLElement) {
  fireEvent.click(element)
  fireEvent.click(element)
}
/** Lets every request that would go out go out. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 20))

async function renderItem(
  item: Partial<TItem>,
  {
    loan,
    asks = [],
    extra = {},
    language = 'en',
  }: {
    loan?: TLoan
    asks?: TBorrowRequest[]
    extra?: Record<string, (body: unknown) => Response>
    language?: 'en' | 'de'
  } = {},
) {
  const fetchMock = mockApi({
    [`GET /api/items/${ITEM}`]: () => json(200, { item: testItem(item) }),
    [`GET /api/items/${ITEM}/ownership-status`]: () => json(200, { hasFullOwnership: true }),
    [`GET /api/handovers/item/${ITEM}`]: () => json(200, { handovers: [] }),
    [`GET /api/items/${ITEM}/borrow-requests`]: () => json(200, { borrowRequests: asks }),
    ...(loan ? { [`GET /api/loans/${loan.id}`]: () => json(200, { loan }) } : {}),
    ...extra,
  })
  await renderPages({ '/items/:itemId': ItemPage }, `/items/${ITEM}`, {
    namespaces: ['items', 'loans'],
    language,
  })
  await screen.findByRole('heading', { level: 1, name: 'Cordless drill' })
  return fetchMock
}

const lendingRegion = () => screen.findByRole('region', { name: /^(Lending|Verleihen)$/ })
const dialog = () => screen.getByRole('dialog')

beforeEach(() => startSession(validToken(), testUser))
afterEach(() => vi.unstubAllGlobals())
vi.setConfig({ testTimeout: 20_000 })

describe('item page: the lending status (issue 26)', () => {
  it("says 'Available' for an item that is in, and the queue's length", async () => {
    await renderItem({ lending: { loan: null, queueLength: 2 } })
    const region = await lendingRegion()
    expect(region.textContent).toContain('Available')
    expect(region.textContent).toContain('2 waiting')
  })

  it("says 'On loan to Ben until …' to a member, with the badge under the name", async () => {
    const loan = testLoan()
    await renderItem({ ...ottos, lending: lendingOf({ ...loan, lender: OTTO }) })
    const region = await lendingRegion()
    expect(region.textContent).toContain('On loan to Ben Ortiz until Dec 3, 2026')
    expect(screen.getByText('On loan')).toBeTruthy()
    // The details name both: the owner keeps it, the borrower has it.
    const details = screen.getByRole('region', { name: 'Details' })
    expect(within(details).getByText('Owner').nextElementSibling?.textContent).toBe(OTTO.name)
    expect(within(details).getByText('On loan to').nextElementSibling?.textContent).toBe('Ben Ortiz')
    expect(within(details).queryByText('Held by')).toBeNull()
  })

  it("says 'Overdue since …' and, in German, 'Überfällig seit …'", async () => {
    const loan = testLoan({ overdue: true })
    await renderItem({ lending: lendingOf(loan) }, { loan, language: 'de' })
    const region = await lendingRegion()
    expect(region.textContent).toContain('Überfällig seit 03.12.2026 (bei Ben Ortiz)')
  })

  it('says a recalled loan is to be returned, and why', async () => {
    const loan = testLoan({ recalledAt: '2026-11-25T10:00:00.000Z', recallReason: 'LEFT' })
    await renderItem({ lending: lendingOf(loan) }, { loan })
    const region = await lendingRegion()
    await waitFor(() => expect(region.textContent).toContain('To be returned (Ben Ortiz left the circle)'))
    // Nobody left in the circle to confirm: the lender records it; no date changes for a leaver.
    expect(await within(region).findByRole('button', { name: 'Record return' })).toBeTruthy()
    expect(within(region).queryByRole('button', { name: 'Change return date' })).toBeNull()
  })
})

describe('item page: the borrower (issue 26)', () => {
  const asBorrower = (
    loan = testLoan({ lender: OTTO, borrower: { id: testUser.id, name: testUser.name } }),
  ) => ({
    item: { ...ottos, lending: lendingOf(loan) },
    loan,
  })

  it('Return: a double click starts one return, and says who confirms it', async () => {
    const { item, loan } = asBorrower()
    const fetchMock = await renderItem(item, {
      loan,
      extra: { [`POST /api/loans/${LOAN_ID}/return`]: () => json(201, { loan }) },
    })
    fireEvent.click(await within(await lendingRegion()).findByRole('button', { name: 'Return' }))
    fireEvent.change(within(dialog()).getByLabelText(/Note/), { target: { value: 'On your porch' } })
    pressTwice(within(dialog()).getByRole('button', { name: 'Return' }))
    expect(
      await screen.findByText('Return started: Otto Owner confirms when they have it back.'),
    ).toBeTruthy()
    await settle()
    expect(sentBodies(fetchMock, `POST /api/loans/${LOAN_ID}/return`)).toEqual([{ comment: 'On your porch' }])
  })

  it("Ask for more time: sends the picked date with the browser's offset and the message", async () => {
    const { item, loan } = asBorrower()
    const fetchMock = await renderItem(item, {
      loan,
      extra: {
        [`POST /api/loans/${LOAN_ID}/extensions`]: () =>
          json(201, { loan, extension: { ...testLoan().pendingExtension } }),
      },
    })
    fireEvent.click(await within(await lendingRegion()).findByRole('button', { name: 'Ask for more time' }))
    fireEvent.change(within(dialog()).getByLabelText('New return date'), { target: { value: '2026-12-10' } })
    fireEvent.change(within(dialog()).getByLabelText('Time'), { target: { value: '18:30' } })
    fireEvent.change(within(dialog()).getByLabelText(/Message/), { target: { value: 'One more week?' } })
    pressTwice(within(dialog()).getByRole('button', { name: 'Send the wish' }))
    await settle()
    const sent = sentBodies(fetchMock, `POST /api/loans/${LOAN_ID}/extensions`) as {
      dueAt: string
      message: string
    }[]
    expect(sent).toHaveLength(1)
    expect(sent[0]!.message).toBe('One more week?')
    expect(sent[0]!.dueAt).toMatch(/^2026-12-10T18:30:00[+-]\d{2}:\d{2}$/)
    expect(new Date(sent[0]!.dueAt).getTime()).toBe(new Date(2026, 11, 10, 18, 30).getTime())
  })

  it("shows the server's reason when the wish is refused, and keeps the dialog open", async () => {
    const { item, loan } = asBorrower()
    await renderItem(item, {
      loan,
      extra: {
        [`POST /api/loans/${LOAN_ID}/extensions`]: () =>
          json(409, { message: 'A wish for more time is already waiting for an answer.', code: 'CONFLICT' }),
      },
    })
    fireEvent.click(await within(await lendingRegion()).findByRole('button', { name: 'Ask for more time' }))
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Send the wish' }))
    expect(await within(dialog()).findByRole('alert')).toHaveProperty(
      'textContent',
      'A wish for more time is already waiting for an answer.',
    )
  })

  it('refuses a return date in the past before sending', async () => {
    const { item, loan } = asBorrower()
    const fetchMock = await renderItem(item, { loan })
    fireEvent.click(await within(await lendingRegion()).findByRole('button', { name: 'Ask for more time' }))
    fireEvent.change(within(dialog()).getByLabelText('New return date'), {
      target: { value: dateInDays(-1) },
    })
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Send the wish' }))
    expect(await within(dialog()).findByText('Pick a moment in the future.')).toBeTruthy()
    expect(callCount(fetchMock, `POST /api/loans/${LOAN_ID}/extensions`)).toBe(0)
  })

  it('a pending return started by me says whom it waits for, and offers no second return', async () => {
    const { item, loan } = asBorrower(
      testLoan({
        lender: OTTO,
        borrower: { id: testUser.id, name: testUser.name },
        pendingReturn: { handoverId: crypto.randomUUID(), startedBy: 'BORROWER' },
      }),
    )
    await renderItem(item, { loan })
    const region = await lendingRegion()
    expect(await within(region).findByText('Waiting for Otto Owner to confirm the return.')).toBeTruthy()
    expect(within(region).queryByRole('button', { name: 'Return' })).toBeNull()
  })
})

describe('item page: the lender (issue 26)', () => {
  const extension = {
    id: EXTENSION_ID,
    loanId: LOAN_ID,
    requestedBy: BEN,
    dueAt: new Date(2026, 11, 10, 23, 59).toISOString(),
    message: 'Still drilling',
    status: 'PENDING' as const,
    createdAt: '2026-11-25T10:00:00.000Z',
    answeredAt: null,
  }

  it.each([
    ['Accept', 'ACCEPTED', 'Accepted: the return date is now Dec 10, 2026.'],
    ['Decline', 'DECLINED', 'Declined: the return date stays as it was.'],
  ])('%s a wish for more time: one answer on a double click', async (label, status, said) => {
    const loan = testLoan({ pendingExtension: extension })
    const fetchMock = await renderItem(
      { lending: lendingOf(loan) },
      {
        loan,
        extra: {
          [`PUT /api/loans/${LOAN_ID}/extensions/${EXTENSION_ID}`]: () =>
            json(200, { loan, extension: { ...extension, status } }),
        },
      },
    )
    const region = await lendingRegion()
    expect(await within(region).findByText('Ben Ortiz asks to keep it until Dec 10, 2026.')).toBeTruthy()
    expect(region.textContent).toContain('Still drilling')
    pressTwice(within(region).getByRole('button', { name: label }))
    expect(await screen.findByText(said)).toBeTruthy()
    await settle()
    expect(sentBodies(fetchMock, `PUT /api/loans/${LOAN_ID}/extensions/${EXTENSION_ID}`)).toEqual([
      { status },
    ])
  })

  it('Change return date: PATCHes the new date; a refusal shows its reason', async () => {
    const loan = testLoan()
    let refuse = true
    const fetchMock = await renderItem(
      { lending: lendingOf(loan) },
      {
        loan,
        extra: {
          [`PATCH /api/loans/${LOAN_ID}`]: () =>
            refuse ? json(409, { message: 'This loan has ended.', code: 'CONFLICT' }) : json(200, { loan }),
        },
      },
    )
    fireEvent.click(await within(await lendingRegion()).findByRole('button', { name: 'Change return date' }))
    // Prefilled with the current date.
    expect((within(dialog()).getByLabelText('New return date') as HTMLInputElement).value).toBe('2026-12-03')
    fireEvent.change(within(dialog()).getByLabelText('New return date'), { target: { value: '2026-12-01' } })
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Save the date' }))
    expect(await within(dialog()).findByText('This loan has ended.')).toBeTruthy()
    refuse = false
    pressTwice(within(dialog()).getByRole('button', { name: 'Save the date' }))
    expect(await screen.findByText('The return date is now Dec 1, 2026.')).toBeTruthy()
    await settle()
    expect(callCount(fetchMock, `PATCH /api/loans/${LOAN_ID}`)).toBe(2)
  })

  it('Record return, and a return the borrower started says to confirm it here', async () => {
    const loan = testLoan({ pendingReturn: { handoverId: crypto.randomUUID(), startedBy: 'BORROWER' } })
    await renderItem({ lending: lendingOf(loan) }, { loan })
    const region = await lendingRegion()
    expect(
      await within(region).findByText('Ben Ortiz started the return: confirm it above when it is settled.'),
    ).toBeTruthy()
    expect(within(region).queryByRole('button', { name: 'Record return' })).toBeNull()
  })
})

describe('item page: asks to borrow (issue 26)', () => {
  it('a member asks with a wished period and a message; a double click sends one ask', async () => {
    const fetchMock = await renderItem(
      { ...ottos },
      {
        extra: { [`POST /api/items/${ITEM}/borrow-requests`]: () => json(201, { borrowRequest: testAsk() }) },
      },
    )
    const asks = await screen.findByRole('region', { name: 'Borrow it' })
    fireEvent.click(await within(asks).findByRole('button', { name: 'Ask to borrow' }))
    fireEvent.change(within(dialog()).getByLabelText(/From/), { target: { value: '2026-12-05' } })
    fireEvent.change(within(dialog()).getByLabelText('Until'), { target: { value: '2026-12-12' } })
    fireEvent.change(within(dialog()).getByLabelText(/Message/), { target: { value: 'For the shelves' } })
    pressTwice(within(dialog()).getByRole('button', { name: 'Send the ask' }))
    expect(await screen.findByText('Asked: Otto Owner answers.')).toBeTruthy()
    await settle()
    const sent = sentBodies(fetchMock, `POST /api/items/${ITEM}/borrow-requests`) as Record<string, string>[]
    expect(sent).toHaveLength(1)
    expect(new Date(sent[0]!.wishedFrom!).getTime()).toBe(new Date(2026, 11, 5, 0, 0).getTime())
    expect(new Date(sent[0]!.wishedUntil!).getTime()).toBe(new Date(2026, 11, 12, 23, 59).getTime())
    expect(sent[0]!.message).toBe('For the shelves')
  })

  it("shows the server's reason when the ask is refused", async () => {
    await renderItem(
      { ...ottos },
      {
        extra: {
          [`POST /api/items/${ITEM}/borrow-requests`]: () =>
            json(409, { message: 'You have already asked to borrow this item.', code: 'CONFLICT' }),
        },
      },
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Ask to borrow' }))
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Send the ask' }))
    expect(await within(dialog()).findByText('You have already asked to borrow this item.')).toBeTruthy()
  })

  it("shows my place in line ('You are 2nd in line') and withdraws once on a double click", async () => {
    const mine = testAsk({ asker: { id: testUser.id, name: testUser.name }, owner: OTTO, position: 2 })
    const fetchMock = await renderItem(
      { ...ottos, lending: { loan: null, queueLength: 2 } },
      {
        asks: [testAsk({ position: 1, owner: OTTO }), { ...mine, id: crypto.randomUUID() }],
        extra: { [`DELETE /api/borrow-requests/*`]: () => json(200, { message: 'Withdrawn' }) },
      },
    )
    expect(await screen.findByText('You are 2nd in line')).toBeTruthy()
    pressTwice(screen.getByRole('button', { name: 'Withdraw my ask' }))
    expect(await screen.findByText('Your ask is withdrawn.')).toBeTruthy()
    await settle()
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE')).toHaveLength(1)
  })

  it('the owner sees the queue; Accept opens the loan with the wished date prefilled', async () => {
    const fetchMock = await renderItem(
      { lending: { loan: null, queueLength: 1 } },
      {
        asks: [testAsk()],
        extra: {
          [`PUT /api/borrow-requests/${ASK_ID}`]: () =>
            json(200, { borrowRequest: testAsk({ status: 'OFFERED', handoverId: crypto.randomUUID() }) }),
        },
      },
    )
    const queue = await screen.findByRole('region', { name: 'Asks to borrow' })
    expect(await within(queue).findByText(/Cara Diaz/)).toBeTruthy()
    expect(queue.textContent).toContain('wished until Dec 10, 2026')
    expect(queue.textContent).toContain('For the shelves')
    fireEvent.click(within(queue).getByRole('button', { name: 'Accept' }))
    expect((within(dialog()).getByLabelText('Return date') as HTMLInputElement).value).toBe('2026-12-10')
    expect((within(dialog()).getByLabelText('Time') as HTMLInputElement).value).toBe('23:59')
    pressTwice(within(dialog()).getByRole('button', { name: 'Lend' }))
    expect(await screen.findByText('Loan request sent to Cara Diaz.')).toBeTruthy()
    await settle()
    const sent = sentBodies(fetchMock, `PUT /api/borrow-requests/${ASK_ID}`) as Record<string, string>[]
    expect(sent).toHaveLength(1)
    expect(sent[0]!.status).toBe('ACCEPTED')
    expect(new Date(sent[0]!.dueAt!).getTime()).toBe(new Date(2026, 11, 10, 23, 59).getTime())
  })

  it('the owner declines with a reason; a refusal shows the true reason', async () => {
    let refuse = true
    const fetchMock = await renderItem(
      { lending: { loan: null, queueLength: 1 } },
      {
        asks: [testAsk()],
        extra: {
          [`PUT /api/borrow-requests/${ASK_ID}`]: () =>
            refuse
              ? json(409, { message: 'This ask was withdrawn.', code: 'CONFLICT' })
              : json(200, { borrowRequest: testAsk({ status: 'DECLINED' }) }),
        },
      },
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }))
    fireEvent.change(within(dialog()).getByLabelText(/Reason/), { target: { value: 'Needed it myself' } })
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Decline' }))
    expect(await within(dialog()).findByText('This ask was withdrawn.')).toBeTruthy()
    refuse = false
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Decline' }))
    expect(await screen.findByText("Cara Diaz's ask is declined.")).toBeTruthy()
    expect(sentBodies(fetchMock, `PUT /api/borrow-requests/${ASK_ID}`).at(-1)).toEqual({
      status: 'DECLINED',
      reason: 'Needed it myself',
    })
  })

  it('the owner sees an empty queue calmly', async () => {
    await renderItem({})
    expect(await screen.findByText('Nobody has asked to borrow it.')).toBeTruthy()
    void CARA
  })
})

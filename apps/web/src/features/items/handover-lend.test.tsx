import { MESSAGES, type THandover } from '@circles/shared'
import { fireEvent, screen, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { dateInDays } from '@/lib/lending/dates'
import { testItem, TEST_CIRCLE_ID } from '@/test/items'
import { BEN, lendingOf, testLoan } from '@/test/lending'
import { callCount, json, mockApi, sentBodies } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { HandoverPage } from './routes/handover-page'
import { ItemPage } from './routes/item-page'

const ITEM = testItem().id
const HANDOVER = '22222222-2222-4222-8222-222222222222'

const circle = {
  id: TEST_CIRCLE_ID,
  name: 'Linden Street',
  description: null,
  adminId: testUser.id,
  createdAt: '2026-10-01T10:00:00.000Z',
  memberCount: 2,
  items: [],
  users: [
    {
      id: crypto.randomUUID(),
      role: 'ADMIN',
      userId: testUser.id,
      joinedAt: '2026-10-01T10:00:00.000Z',
      user: testUser,
    },
    {
      id: crypto.randomUUID(),
      role: 'MEMBER',
      userId: BEN.id,
      joinedAt: '2026-10-02T10:00:00.000Z',
      user: { ...BEN, email: 'ben@example.com' },
    },
  ],
}

const handover = (extra: Partial<THandover> = {}): THandover => ({
  id: HANDOVER,
  itemId: ITEM,
  circleId: TEST_CIRCLE_ID,
  senderId: testUser.id,
  receiverId: BEN.id,
  status: 'PENDING',
  requesterComment: null,
  secretMessage: null,
  hasSecretMessage: false,
  receiverComment: null,
  completeOwnership: false,
  kind: 'LOAN',
  dueAt: new Date(2026, 11, 3, 23, 59).toISOString(),
  loanId: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  answeredAt: null,
  sender: { name: testUser.name },
  receiver: { name: BEN.name },
  item: { name: 'Cordless drill', thumbnailUrl: null },
  block: null,
  condition: { sender: { note: null, photos: [] }, receiver: { note: null, photos: [] }, asDescribed: false },
  ...extra,
})

function api(item = testItem(), handovers: THandover[] = [], extra = {}) {
  return mockApi({
    [`GET /api/items/${ITEM}`]: () => json(200, { item }),
    [`GET /api/items/${ITEM}/ownership-status`]: () => json(200, { hasFullOwnership: true }),
    [`GET /api/handovers/item/${ITEM}`]: () => json(200, { handovers }),
    [`GET /api/circles/${TEST_CIRCLE_ID}`]: () => json(200, { circle }),
    [`GET /api/items/${ITEM}/borrow-requests`]: () => json(200, { borrowRequests: [] }),
    ...extra,
  })
}

const openHandover = (language: 'en' | 'de' = 'en') =>
  renderPages({ '/items/:itemId/handover': HandoverPage }, `/items/${ITEM}/handover`, {
    namespaces: ['items', 'loans'],
    language,
  })

beforeEach(() => startSession(validToken(), testUser))
afterEach(() => vi.unstubAllGlobals())
vi.setConfig({ testTimeout: 20_000 })

describe('handover page: Lend with a return date (issue 26)', () => {
  it('defaults to a week ahead at 23:59 and sends kind LOAN with the local offset, once on a double submit', async () => {
    const fetchMock = api(testItem(), [], {
      'POST /api/handovers': () => json(201, { handover: handover() }),
    })
    await openHandover()
    fireEvent.change(await screen.findByLabelText('Receiver'), { target: { value: BEN.id } })
    fireEvent.click(screen.getByRole('radio', { name: /Lend/ }))
    const date = screen.getByLabelText('Return date') as HTMLInputElement
    expect(date.value).toBe(dateInDays(7))
    expect((screen.getByLabelText('Time') as HTMLInputElement).value).toBe('23:59')
    // The complete-ownership choice is for handing over, not for a loan.
    expect(screen.queryByRole('checkbox')).toBeNull()
    fireEvent.change(screen.getByLabelText('Time'), { target: { value: '18:05' } })
    const form = screen.getByRole('button', { name: 'Send loan request' }).closest('form')!
    fireEvent.submit(form)
    fireEvent.submit(form)
    await screen.findByRole('button', { name: 'Send loan request' })
    await vi.waitFor(() => expect(callCount(fetchMock, 'POST /api/handovers')).toBe(1))
    const [sent] = sentBodies(fetchMock, 'POST /api/handovers') as Record<string, unknown>[]
    expect(sent).toMatchObject({ itemId: ITEM, receiverId: BEN.id, kind: 'LOAN', completeOwnership: false })
    expect(sent!.dueAt).toMatch(new RegExp(`^${dateInDays(7)}T18:05:00[+-]\\d{2}:\\d{2}$`))
  })

  it('refuses a past return date without sending', async () => {
    const fetchMock = api()
    await openHandover()
    fireEvent.change(await screen.findByLabelText('Receiver'), { target: { value: BEN.id } })
    fireEvent.click(screen.getByRole('radio', { name: /Lend/ }))
    fireEvent.change(screen.getByLabelText('Return date'), { target: { value: dateInDays(-2) } })
    fireEvent.submit(screen.getByRole('button', { name: 'Send loan request' }).closest('form')!)
    expect(await screen.findByText('Pick a moment in the future.')).toBeTruthy()
    expect(callCount(fetchMock, 'POST /api/handovers')).toBe(0)
  })

  it("shows the server's reason when the loan request is refused, in German", async () => {
    api(testItem(), [], {
      'POST /api/handovers': () =>
        json(409, {
          message: MESSAGES.handoverPendingExists,
          code: 'CONFLICT',
          key: 'handoverPendingExists',
        }),
    })
    await openHandover('de')
    fireEvent.change(await screen.findByLabelText('Empfänger:in'), { target: { value: BEN.id } })
    fireEvent.click(screen.getByRole('radio', { name: /Verleihen/ }))
    fireEvent.submit(screen.getByRole('button', { name: 'Ausleih-Anfrage senden' }).closest('form')!)
    expect(
      await screen.findByText('Für diesen Gegenstand gibt es bereits eine offene Übergabe.'),
    ).toBeTruthy()
  })

  it('an item on loan is not offered for a handover: it comes back first', async () => {
    const loan = testLoan()
    api(testItem({ lending: lendingOf(loan) }))
    await openHandover()
    expect(
      await screen.findByText(
        'It is on loan to Ben Ortiz until Dec 3, 2026. You can hand it over or lend it again once it is back.',
      ),
    ).toBeTruthy()
    expect(screen.queryByLabelText('Receiver')).toBeNull()
  })

  it("the history reads 'Loan until …' for a loan and 'Return' for a return", async () => {
    api(testItem(), [
      handover({ status: 'CONFIRMED' }),
      handover({ id: crypto.randomUUID(), kind: 'RETURN', dueAt: null, status: 'CONFIRMED' }),
    ])
    await openHandover()
    expect(await screen.findByText(/Loan until Dec 3, 2026/)).toBeTruthy()
    expect(screen.getByText(/· Return$/)).toBeTruthy()
  })
})

describe('item page: the receiver reads a loan or a return before answering (issue 26)', () => {
  const ottoItem = testItem({ ownerId: BEN.id, owner: { name: BEN.name } })
  const toMe = {
    senderId: BEN.id,
    receiverId: testUser.id,
    sender: { name: BEN.name },
    receiver: { name: testUser.name },
  }

  it("shows 'Lend until <date>' on a loan request for me", async () => {
    api(ottoItem, [handover(toMe)])
    await renderPages({ '/items/:itemId': ItemPage }, `/items/${ITEM}`, { namespaces: ['items', 'loans'] })
    const region = await screen.findByRole('region', { name: 'Loan offered to you' })
    expect(within(region).getByText('Lend until Dec 3, 2026')).toBeTruthy()
    expect(within(region).getByRole('button', { name: 'Accept' })).toBeTruthy()
  })

  it("shows 'Return of <item>' on a return for me to confirm, in German too", async () => {
    api(testItem(), [handover({ ...toMe, kind: 'RETURN', dueAt: null, loanId: testLoan().id })])
    await renderPages({ '/items/:itemId': ItemPage }, `/items/${ITEM}`, {
      namespaces: ['items', 'loans'],
      language: 'de',
    })
    const region = await screen.findByRole('region', { name: 'Rückgabe bestätigen' })
    expect(within(region).getByText('Rückgabe von Cordless drill')).toBeTruthy()
  })
})

import { MESSAGES, type THandover, type TItem } from '@circles/shared'
import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { callCount, json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testItem } from '@/test/items'
import { testUser, validToken } from '@/test/tokens'
import { ItemForm } from './components/item-form'
import { HandoverPage } from './routes/handover-page'
import { ItemPage } from './routes/item-page'

const ITEM = '33333333-3333-4333-8333-333333333333'
const CIRCLE = '11111111-1111-4111-8111-111111111111'
const OTHER = { id: '44444444-4444-4444-8444-444444444444', name: 'Ben Ortiz', email: 'ben@example.com' }
const HANDOVER = '55555555-5555-4555-8555-555555555555'

const item = (extra: Partial<TItem> = {}): TItem => testItem({ id: ITEM, circleId: CIRCLE, ...extra })

const handover = (toMe: boolean): THandover => ({
  id: HANDOVER,
  itemId: ITEM,
  circleId: CIRCLE,
  senderId: toMe ? OTHER.id : testUser.id,
  receiverId: toMe ? testUser.id : OTHER.id,
  status: 'PENDING',
  requesterComment: null,
  secretMessage: null,
  hasSecretMessage: false,
  receiverComment: null,
  completeOwnership: false,
  kind: 'TRANSFER',
  dueAt: null,
  loanId: null,
  createdAt: '2026-11-02T10:00:00.000Z',
  answeredAt: null,
  sender: { name: toMe ? OTHER.name : testUser.name },
  receiver: { name: toMe ? testUser.name : OTHER.name },
  item: { name: 'Cordless drill', thumbnailUrl: null },
  block: null,
  condition: { sender: { note: null, photos: [] }, receiver: { note: null, photos: [] }, asDescribed: false },
})

const circle = {
  id: CIRCLE,
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
      userId: OTHER.id,
      joinedAt: '2026-10-02T10:00:00.000Z',
      user: OTHER,
    },
  ],
}

function pressTwice(element: HTMLElement) {
  fireEvent.click(element)
  fireEvent.click(element)
}
/** Lets every request that would go out go out. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 20))

beforeEach(() => startSession(validToken(), testUser))
// Several screens per test: room for a busy machine.
vi.setConfig({ testTimeout: 20_000 })

afterEach(() => vi.unstubAllGlobals())

function answers(handovers: THandover[], extra: Record<string, () => Response> = {}) {
  return {
    [`GET /api/items/${ITEM}`]: () =>
      json(200, { item: item({ hasPendingHandovers: handovers.length > 0 }) }),
    [`GET /api/items/${ITEM}/ownership-status`]: () => json(200, { hasFullOwnership: true }),
    [`GET /api/handovers/item/${ITEM}`]: () => json(200, { handovers }),
    [`GET /api/circles/${CIRCLE}`]: () => json(200, { circle }),
    [`GET /api/items/${ITEM}/borrow-requests`]: () => json(200, { borrowRequests: [] }),
    ...extra,
  }
}

describe('a double click sends one request (issue 23)', () => {
  it("Send handover request: one request, only the success, no 'already pending' beside it", async () => {
    const fetchMock = mockApi(
      answers([], {
        'POST /api/handovers': () =>
          json(201, { handover: handover(false), message: MESSAGES.handoverCreated }),
      }),
    )
    await renderPages({ '/items/:itemId/handover': HandoverPage }, `/items/${ITEM}/handover`, {
      namespaces: ['items', 'loans'],
    })
    fireEvent.change(await screen.findByLabelText('Receiver'), { target: { value: OTHER.id } })
    const button = screen.getByRole('button', { name: 'Send handover request' })
    const form = button.closest('form')!
    fireEvent.submit(form)
    fireEvent.submit(form)
    expect(await screen.findByText(MESSAGES.handoverCreated)).toBeTruthy()
    await settle()
    expect(callCount(fetchMock, 'POST /api/handovers')).toBe(1)
  })

  it.each([
    ['Accept', 'CONFIRMED'],
    ['Reject', 'REJECTED'],
  ])('%s: one answer', async (label) => {
    const fetchMock = mockApi(
      answers([handover(true)], {
        [`PUT /api/handovers/${HANDOVER}/status`]: () => json(500),
      }),
    )
    await renderPages({ '/items/:itemId/handover': HandoverPage }, `/items/${ITEM}/handover`, {
      namespaces: ['items', 'loans'],
    })
    pressTwice(await screen.findByRole('button', { name: label }))
    await settle()
    expect(callCount(fetchMock, `PUT /api/handovers/${HANDOVER}/status`)).toBe(1)
  })

  it('Cancel request: one cancellation', async () => {
    const fetchMock = mockApi(
      answers([handover(false)], {
        [`DELETE /api/handovers/${HANDOVER}`]: () => json(200, { message: MESSAGES.handoverCancelled }),
      }),
    )
    await renderPages({ '/items/:itemId/handover': HandoverPage }, `/items/${ITEM}/handover`, {
      namespaces: ['items', 'loans'],
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel request' }))
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this handover request?' })
    pressTwice(within(dialog).getByRole('button', { name: 'Cancel request' }))
    expect(await screen.findByText(MESSAGES.handoverCancelled)).toBeTruthy()
    await settle()
    expect(callCount(fetchMock, `DELETE /api/handovers/${HANDOVER}`)).toBe(1)
  })

  it("Delete in the dialog: one deletion and no 'Not found' after it", async () => {
    let deleted = false
    const fetchMock = mockApi(
      answers([], {
        [`DELETE /api/items/${ITEM}`]: () =>
          deleted
            ? json(404, { message: MESSAGES.notFound })
            : ((deleted = true), json(200, { message: MESSAGES.itemDeleted })),
        'GET /api/items/my-items': () => json(200, { items: [] }),
      }),
    )
    await renderPages({ '/items/:itemId': ItemPage }, `/items/${ITEM}`, { namespaces: ['items', 'loans'] })
    await screen.findByRole('heading', { level: 1, name: 'Cordless drill' })
    fireEvent.click((await screen.findAllByRole('button', { name: 'Delete item' }))[0]!)
    const dialog = await screen.findByRole('dialog')
    pressTwice(within(dialog).getByRole('button', { name: 'Delete item' }))
    expect(await screen.findByText(MESSAGES.itemDeleted)).toBeTruthy()
    await settle()
    expect(callCount(fetchMock, `DELETE /api/items/${ITEM}`)).toBe(1)
    expect(screen.queryByText(MESSAGES.notFound)).toBeNull()
  })

  it('Save item: one item', async () => {
    const fetchMock = mockApi({
      'POST /api/items': () => json(201, { item: item(), message: MESSAGES.itemCreated }),
      '*': () => json(200, { items: [] }),
    })
    const onDone = vi.fn()
    await renderPages({ '/': () => <ItemForm circleId={CIRCLE} onDone={onDone} /> }, '/', {
      namespaces: ['items', 'loans'],
    })
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Cordless drill' } })
    const form = screen.getByRole('button', { name: 'Save item' }).closest('form')!
    fireEvent.submit(form)
    fireEvent.submit(form)
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1))
    await settle()
    expect(callCount(fetchMock, 'POST /api/items')).toBe(1)
  })

  it('Save changes of an item: one update', async () => {
    const fetchMock = mockApi({
      [`PUT /api/items/${ITEM}`]: () => json(200, { item: item(), message: MESSAGES.itemUpdated }),
      '*': () => json(200, { items: [] }),
    })
    const onDone = vi.fn()
    await renderPages({ '/': () => <ItemForm circleId={CIRCLE} item={item()} onDone={onDone} /> }, '/', {
      namespaces: ['items', 'loans'],
    })
    const form = (await screen.findByRole('button', { name: 'Save changes' })).closest('form')!
    fireEvent.submit(form)
    fireEvent.submit(form)
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1))
    await settle()
    expect(callCount(fetchMock, `PUT /api/items/${ITEM}`)).toBe(1)
  })
})

describe('a picked file that is not a picture (issue 23)', () => {
  it('is refused at the pick with the spec message, and nothing is saved until a real picture or none is chosen', async () => {
    const fetchMock = mockApi({
      'POST /api/items': () => json(201, { item: item(), message: MESSAGES.itemCreated }),
      '*': () => json(200, { items: [] }),
    })
    const onDone = vi.fn()
    await renderPages({ '/': () => <ItemForm circleId={CIRCLE} onDone={onDone} /> }, '/', {
      namespaces: ['items', 'loans'],
    })
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Cordless drill' } })
    const input = screen.getByLabelText('Picture') as HTMLInputElement
    const renamed = new File(['just some notes\n'], 'notes.jpg', { type: 'image/jpeg' })
    fireEvent.change(input, { target: { files: [renamed] } })
    expect((await screen.findAllByText(MESSAGES.invalidImageType)).length).toBeGreaterThan(0)
    expect(input.getAttribute('aria-invalid')).toBe('true')

    fireEvent.submit(input.closest('form')!)
    await settle()
    expect(callCount(fetchMock, 'POST /api/items')).toBe(0)

    fireEvent.click(screen.getByRole('button', { name: 'Continue without a picture' }))
    fireEvent.submit(input.closest('form')!)
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1))
    expect(callCount(fetchMock, 'POST /api/items')).toBe(1)
  })
})

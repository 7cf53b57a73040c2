import type { THandover, TItem } from '@circles/shared'
import { fireEvent, screen, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { json, mockApi, sentBodies } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { ItemPage } from './item-page'

const ITEM = '33333333-3333-4333-8333-333333333333'
const CIRCLE = '11111111-1111-4111-8111-111111111111'

const item = (ownerLeftCircle: boolean): TItem => ({
  id: ITEM,
  name: 'Cordless drill',
  code: '7K3M9QXR',
  description: null,
  imageUrl: null,
  thumbnailUrl: null,
  circleId: CIRCLE,
  ownerId: testUser.id,
  ownership: 'COMPLETE',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  owner: { name: testUser.name },
  circle: { name: 'Linden Street', adminId: testUser.id },
  ownerLeftCircle,
  hasPendingHandovers: false,
  locked: false,
  lending: { loan: null, queueLength: 0 },
})

async function render(ownerLeftCircle: boolean) {
  mockApi({
    [`GET /api/items/${ITEM}`]: () => json(200, { item: item(ownerLeftCircle) }),
    [`GET /api/items/${ITEM}/ownership-status`]: () => json(200, { hasFullOwnership: true }),
    [`GET /api/handovers/item/${ITEM}`]: () => json(200, { handovers: [] }),
    [`GET /api/items/${ITEM}/borrow-requests`]: () => json(200, { borrowRequests: [] }),
  })
  await renderPages({ '/items/:itemId': ItemPage }, `/items/${ITEM}`, { namespaces: ['items', 'loans'] })
  await screen.findByRole('heading', { level: 1, name: 'Cordless drill' })
}

beforeEach(() => startSession(validToken(), testUser))
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('item page: the ownership chain card (spec 001 §2)', () => {
  it("links a member's item to its chain", async () => {
    await render(false)
    const link = screen.getByRole('link', { name: 'View the ownership chain' })
    expect(link.getAttribute('href')).toBe(`/blockchain/item/${ITEM}`)
  })

  it('leaves it out for an item its holder kept on leaving the circle, whose ledger they no longer read', async () => {
    await render(true)
    expect(screen.queryByRole('link', { name: 'View the ownership chain' })).toBeNull()
  })
})

const OTHER = '44444444-4444-4444-8444-444444444444'
const handover = (overrides: Partial<THandover> = {}): THandover => ({
  id: '22222222-2222-4222-8222-222222222222',
  itemId: ITEM,
  circleId: CIRCLE,
  senderId: OTHER,
  receiverId: testUser.id,
  status: 'PENDING',
  requesterComment: 'Batteries are charged',
  secretMessage: 'The case code is 4711',
  hasSecretMessage: true,
  receiverComment: null,
  completeOwnership: true,
  kind: 'TRANSFER',
  dueAt: null,
  loanId: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  answeredAt: null,
  sender: { name: 'Otto Owner' },
  receiver: { name: testUser.name },
  item: { name: 'Cordless drill', thumbnailUrl: null },
  block: null,
  condition: { sender: { note: null, photos: [] }, receiver: { note: null, photos: [] }, asDescribed: false },
  ...overrides,
})

async function renderAs(
  overrides: Partial<TItem>,
  { handovers = [] as THandover[], full = false, language = 'en' as 'en' | 'de', extra = {} } = {},
) {
  const fetchMock = mockApi({
    [`GET /api/items/${ITEM}`]: () => json(200, { item: { ...item(false), ...overrides } }),
    [`GET /api/items/${ITEM}/ownership-status`]: () => json(200, { hasFullOwnership: full }),
    [`GET /api/handovers/item/${ITEM}`]: () => json(200, { handovers }),
    [`GET /api/items/${ITEM}/borrow-requests`]: () => json(200, { borrowRequests: [] }),
    ...extra,
  })
  await renderPages({ '/items/:itemId': ItemPage }, `/items/${ITEM}`, {
    namespaces: ['items', 'loans'],
    language,
  })
  await screen.findByRole('heading', { level: 1, name: 'Cordless drill' })
  return fetchMock
}

const someoneElses = {
  ownerId: OTHER,
  owner: { name: 'Otto Owner' },
  circle: { name: 'Linden Street', adminId: OTHER },
}

describe('item page: the receiver answers right here (issue 23)', () => {
  it('shows the request with the secret message, and Accept sends the answer with the reply', async () => {
    const fetchMock = await renderAs(
      { ...someoneElses, hasPendingHandovers: true },
      {
        handovers: [handover()],
        extra: {
          [`PUT /api/handovers/${handover().id}/status`]: () =>
            json(200, { handover: { ...handover(), status: 'CONFIRMED' } }),
        },
      },
    )
    const region = await screen.findByRole('region', { name: 'Item Handover Received' })
    expect(region.textContent).toContain('Accept or reject it here')
    expect(region.textContent).toContain('The case code is 4711')
    expect(region.textContent).toContain('Batteries are charged')
    fireEvent.change(within(region).getByLabelText(/Your reply/), { target: { value: 'Thanks!' } })
    fireEvent.click(within(region).getByRole('button', { name: 'Accept' }))
    expect(await screen.findByText('Handover confirmed successfully')).toBeTruthy()
    expect(sentBodies(fetchMock, `PUT /api/handovers/${handover().id}/status`)).toEqual([
      { status: 'CONFIRMED', receiverComment: 'Thanks!' },
    ])
  })

  it('shows a refused answer with its reason, in German', async () => {
    await renderAs(
      { ...someoneElses, hasPendingHandovers: true },
      {
        language: 'de',
        handovers: [handover()],
        extra: {
          [`PUT /api/handovers/${handover().id}/status`]: () =>
            json(409, { message: 'This handover request has been cancelled.', code: 'CONFLICT' }),
        },
      },
    )
    const region = await screen.findByRole('region', { name: 'Übergabe erhalten' })
    expect(region.textContent).toContain('Nimm ihn hier an oder lehne ab')
    fireEvent.click(within(region).getByRole('button', { name: 'Ablehnen' }))
    expect(await screen.findByText('Diese Übergabeanfrage wurde zurückgezogen.')).toBeTruthy()
  })
})

describe('item page: every action it does not offer names its true reason (issue 23)', () => {
  const reasonOf = (name: string) => {
    const button = screen.getByRole('button', { name })
    expect(button).toHaveProperty('disabled', true)
    return document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent
  }

  it('a member who does not hold it (a former holder): someone else holds it', async () => {
    await renderAs({ ...someoneElses, locked: true })
    expect(reasonOf('Hand over')).toBe('Only its holder, Otto Owner, can hand this item over.')
    expect(reasonOf('Edit Locked')).toContain('Handed over in a confirmed handover')
    expect(reasonOf('Delete item')).toBe(
      'Only its holder, Otto Owner, can delete this item, and only with complete ownership.',
    )
    expect(document.body.textContent).not.toContain('Cannot delete this item')
    expect(document.body.textContent).not.toContain('already been involved')
  })

  it('a partial holder may hand it over; nothing says they can only view it', async () => {
    await renderAs({ ownership: 'PARTIAL', circle: { name: 'Linden Street', adminId: OTHER } })
    expect(screen.getByRole('link', { name: 'Hand over' }).getAttribute('href')).toBe(
      `/items/${ITEM}/handover`,
    )
    expect(screen.getByRole('link', { name: 'Edit item' })).toBeTruthy()
    expect(reasonOf('Delete item')).toBe('Cannot delete this item. You do not have complete ownership.')
    expect(document.body.textContent).not.toContain('You can only view it')
  })

  it('the holder while a handover is pending: view it, no edit or delete until it is answered (German)', async () => {
    await renderAs({ hasPendingHandovers: true }, { full: true, language: 'de' })
    expect(screen.getByRole('link', { name: 'Übergabe ansehen' })).toBeTruthy()
    expect(reasonOf('Gegenstand bearbeiten')).toBe(
      'Eine Übergabe wartet auf Antwort: Bis dahin lässt er sich nicht ändern.',
    )
    expect(reasonOf('Gegenstand löschen')).toBe(
      'Eine Übergabe wartet auf Antwort: Bis dahin lässt er sich nicht löschen.',
    )
  })

  it('the holder with complete ownership has every action and no reasons', async () => {
    await renderAs({}, { full: true })
    expect(screen.getByRole('link', { name: 'Hand over' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Edit item' })).toBeTruthy()
    expect(await screen.findByRole('button', { name: 'Delete item' })).toHaveProperty('disabled', false)
  })
})

describe('item page: ownership is explained where it shows (issue 23)', () => {
  it.each([
    ['COMPLETE', 'en', 'Complete', 'The holder owns it: may use it, delete it and hand it on for good.'],
    ['PARTIAL', 'en', 'Partial', 'may use it and hand it on, but not delete it'],
    ['PARTIAL', 'de', 'Teilweise', 'Die Person hat ihn in ihrer Obhut'],
  ] as const)('%s (%s)', async (ownership, language, word, help) => {
    await renderAs({ ownership }, { language })
    const value = screen.getByText(word).closest('dd')
    expect(value?.textContent).toContain(help)
  })
})

describe('item page: the label (issue 27)', () => {
  it("shows the item's code and prints its label alone", async () => {
    const print = vi.fn()
    vi.stubGlobal('print', print)
    await render(false)
    const details = screen.getByRole('complementary')
    expect(within(details).getByText('7K3M9QXR')).toBeTruthy()
    fireEvent.click(within(details).getByRole('button', { name: 'Print label' }))
    expect(print).toHaveBeenCalledOnce()
    // What the printer gets: the label (QR code, name, code), shown only in print.
    const label = screen.getByTestId('print-label')
    expect(label.className).toContain('print:block')
    expect(within(label).getByText('7K3M9QXR')).toBeTruthy()
    expect(label.querySelector('svg title')?.textContent).toBe('QR code for Cordless drill')
  })
})

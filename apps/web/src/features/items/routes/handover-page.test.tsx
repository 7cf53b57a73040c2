import type { THandover, TItem } from '@circles/shared'
import { screen, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { callCount, json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { HandoverPage } from './handover-page'

const ITEM = '33333333-3333-4333-8333-333333333333'
const CIRCLE = '11111111-1111-4111-8111-111111111111'

const item: TItem = {
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
  ownerLeftCircle: false,
  hasPendingHandovers: false,
  locked: false,
  lending: { loan: null, queueLength: 0 },
}

const answers = (circle: () => Response) => ({
  [`GET /api/items/${ITEM}`]: () => json(200, { item }),
  [`GET /api/items/${ITEM}/ownership-status`]: () => json(200, { hasFullOwnership: true }),
  [`GET /api/handovers/item/${ITEM}`]: () => json(200, { handovers: [] }),
  [`GET /api/circles/${CIRCLE}`]: circle,
})

const render = () =>
  renderPages({ '/items/:itemId/handover': HandoverPage }, `/items/${ITEM}/handover`, {
    namespaces: ['items', 'loans'],
  })

beforeEach(() => startSession(validToken(), testUser))
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('handover page (spec 001 §2)', () => {
  it.each([
    [403, 'Access denied'],
    [404, 'Circle not found'],
  ])("sends someone the item's circle answers %i for back to the item", async (status, message) => {
    const fetchMock = mockApi(answers(() => json(status, { message })))
    const { router } = await render()
    expect((await screen.findByTestId('landed')).textContent).toBe(`/items/${ITEM}`)
    expect(router.action).toBe('REPLACE')
    expect(callCount(fetchMock, `GET /api/circles/${CIRCLE}`)).toBe(1)
  })

  it('keeps a member on the page when the circle fails for another reason', async () => {
    const fetchMock = mockApi(answers(() => json(500)))
    const { router } = await render()
    expect(await screen.findByRole('heading', { level: 1, name: 'Hand over Cordless drill' })).toBeTruthy()
    // The form shows once the circle's answer is in (its receiver list then empty).
    expect(await screen.findByLabelText('Receiver')).toBeTruthy()
    expect(callCount(fetchMock, `GET /api/circles/${CIRCLE}`)).toBe(1)
    expect(router.location.pathname).toBe(`/items/${ITEM}/handover`)
    expect(screen.queryByTestId('landed')).toBeNull()
  })
})

describe('handover page: true reasons and cancelled requests (issue 23)', () => {
  const RITA = '44444444-4444-4444-8444-444444444444'
  const entry = (status: THandover['status'], id: string, senderId: string, receiverId: string) => ({
    id,
    itemId: ITEM,
    circleId: CIRCLE,
    senderId,
    receiverId,
    status,
    requesterComment: null,
    secretMessage: null,
    hasSecretMessage: false,
    receiverComment: null,
    completeOwnership: false,
    kind: 'TRANSFER',
    dueAt: null,
    loanId: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    answeredAt: '2026-11-21T10:00:00.000Z',
    sender: { name: senderId === RITA ? 'Rita Receiver' : testUser.name },
    receiver: { name: receiverId === RITA ? 'Rita Receiver' : testUser.name },
    item: { name: 'Cordless drill', thumbnailUrl: null },
    block: null,
    condition: {
      sender: { note: null, photos: [] },
      receiver: { note: null, photos: [] },
      asDescribed: false,
    },
  })

  it.each(['en', 'de'] as const)(
    'a former sender reads that someone else holds it; a cancelled request stays, marked (%s)',
    async (language) => {
      mockApi({
        ...answers(() => json(200, { circle: { id: CIRCLE, users: [] } })),
        [`GET /api/items/${ITEM}`]: () =>
          json(200, { item: { ...item, ownerId: RITA, owner: { name: 'Rita Receiver' }, locked: true } }),
        [`GET /api/handovers/item/${ITEM}`]: () =>
          json(200, {
            handovers: [
              entry('CONFIRMED', '22222222-2222-4222-8222-222222222221', testUser.id, RITA),
              entry('CANCELLED', '22222222-2222-4222-8222-222222222222', testUser.id, RITA),
            ],
          }),
      })
      await renderPages({ '/items/:itemId/handover': HandoverPage }, `/items/${ITEM}/handover`, {
        namespaces: ['items', 'loans'],
        language,
      })
      const history = await screen.findByRole('list')
      const cards = within(history).getAllByRole('listitem')
      expect(cards).toHaveLength(2)
      expect(cards[1]!.textContent).toContain(language === 'en' ? 'Cancelled' : 'Zurückgezogen')
      expect(cards[1]!.textContent).toContain(language === 'en' ? 'cancelled' : 'zurückgezogen am')
      expect(within(cards[1]!).queryByRole('button')).toBeNull()
      expect(document.body.textContent).toContain(
        language === 'en'
          ? 'Only its holder, Rita Receiver, can hand this item over.'
          : 'Nur Rita Receiver, bei der oder dem er gerade ist, kann diesen Gegenstand übergeben.',
      )
      expect(document.body.textContent).not.toContain('already been involved')
    },
  )
})

import type { TItem } from '@circles/shared'
import { screen } from '@testing-library/react'
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
}

const answers = (circle: () => Response) => ({
  [`GET /api/items/${ITEM}`]: () => json(200, { item }),
  [`GET /api/items/${ITEM}/ownership-status`]: () => json(200, { hasFullOwnership: true }),
  [`GET /api/handovers/item/${ITEM}`]: () => json(200, { handovers: [] }),
  [`GET /api/circles/${CIRCLE}`]: circle,
})

const render = () =>
  renderPages({ '/items/:itemId/handover': HandoverPage }, `/items/${ITEM}/handover`, {
    namespaces: ['items'],
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
    expect(router.state.historyAction).toBe('REPLACE')
    expect(callCount(fetchMock, `GET /api/circles/${CIRCLE}`)).toBe(1)
  })

  it('keeps a member on the page when the circle fails for another reason', async () => {
    const fetchMock = mockApi(answers(() => json(500)))
    const { router } = await render()
    expect(await screen.findByRole('heading', { level: 1, name: 'Hand over Cordless drill' })).toBeTruthy()
    // The form shows once the circle's answer is in (its receiver list then empty).
    expect(await screen.findByLabelText('Receiver')).toBeTruthy()
    expect(callCount(fetchMock, `GET /api/circles/${CIRCLE}`)).toBe(1)
    expect(router.state.location.pathname).toBe(`/items/${ITEM}/handover`)
    expect(screen.queryByTestId('landed')).toBeNull()
  })
})

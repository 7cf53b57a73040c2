import type { TItem } from '@circles/shared'
import { screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { ItemPage } from './item-page'

const ITEM = '33333333-3333-4333-8333-333333333333'
const CIRCLE = '11111111-1111-4111-8111-111111111111'

const item = (ownerLeftCircle: boolean): TItem => ({
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
  ownerLeftCircle,
  hasPendingHandovers: false,
  locked: false,
})

async function render(ownerLeftCircle: boolean) {
  mockApi({
    [`GET /api/items/${ITEM}`]: () => json(200, { item: item(ownerLeftCircle) }),
    [`GET /api/items/${ITEM}/ownership-status`]: () => json(200, { hasFullOwnership: true }),
    [`GET /api/handovers/item/${ITEM}`]: () => json(200, { handovers: [] }),
  })
  await renderPages({ '/items/:itemId': ItemPage }, `/items/${ITEM}`, { namespaces: ['items'] })
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

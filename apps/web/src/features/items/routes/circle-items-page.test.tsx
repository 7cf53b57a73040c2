import type { TItem } from '@circles/shared'
import { screen } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { CircleItemsPage } from './circle-items-page'

const CIRCLE = '11111111-1111-4111-8111-111111111111'
const circle = {
  id: CIRCLE,
  name: 'Linden Street',
  description: null,
  adminId: testUser.id,
  createdAt: '2026-11-01T10:00:00.000Z',
  memberCount: 1,
  items: [],
  users: [
    {
      id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
      role: 'ADMIN',
      userId: testUser.id,
      joinedAt: '2026-11-01T10:00:00.000Z',
      user: { id: testUser.id, name: testUser.name, email: testUser.email },
    },
  ],
}

/** The circle, and its items by the search's query. */
function api(answer: (query: URLSearchParams) => TItem[]) {
  const queries: string[] = []
  mockApi({}).mockImplementation(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost')
    if (url.pathname === `/api/circles/${CIRCLE}`) return json(200, { circle })
    if (url.pathname !== `/api/items/circle/${CIRCLE}`) throw new Error(`Unexpected request: ${url.pathname}`)
    queries.push(url.search.slice(1))
    const items = answer(url.searchParams)
    return json(200, { items, total: items.length })
  })
  return queries
}

beforeEach(() => startSession(validToken(), testUser))
afterEach(() => vi.unstubAllGlobals())

describe("a circle's items: search (issue 23)", () => {
  it("keeps the spec's empty state, without a search, for a circle with no items", async () => {
    const queries = api(() => [])
    await renderPages({ '/circle/:circleId/items': CircleItemsPage }, `/circle/${CIRCLE}/items`, {
      namespaces: ['items', 'loans'],
    })
    expect(await screen.findByRole('button', { name: 'Add First Item' })).toBeTruthy()
    expect(screen.queryByRole('search')).toBeNull()
    expect(queries[0]).toBe('sort=newest&limit=24')
  })

  it("a search that finds nothing says 'No items match', keeps the search and the add button", async () => {
    const queries = api(() => [])
    await renderPages(
      { '/circle/:circleId/items': CircleItemsPage },
      `/circle/${CIRCLE}/items?q=zebra&holder=me`,
      {
        namespaces: ['items', 'loans'],
      },
    )
    expect(await screen.findByRole('heading', { name: 'No items match' })).toBeTruthy()
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('zebra')
    expect(screen.getByRole('button', { name: 'Add item' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Add First Item' })).toBeNull()
    expect(queries[0]).toBe('q=zebra&holder=me&sort=newest&limit=24')
  })
})

import type { TItem } from '@circles/shared'
import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testItem } from '@/test/items'
import { testUser, validToken } from '@/test/tokens'
import { ItemsPage } from './items-page'

const CIRCLE = '11111111-1111-4111-8111-111111111111'

const item = (n: number, name: string): TItem =>
  testItem({ id: `33333333-3333-4333-8333-33333333333${n}`, circleId: CIRCLE, name })

const circle = {
  id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  role: 'ADMIN',
  joinedAt: '2026-11-01T10:00:00.000Z',
  circle: {
    id: CIRCLE,
    name: 'Linden Street',
    description: null,
    adminId: testUser.id,
    createdAt: '2026-11-01T10:00:00.000Z',
    memberCount: 1,
  },
}

/** The API: the search answers by its query (every call noted), /circles with one circle. */
function api(answer: (query: URLSearchParams) => TItem[]) {
  const queries: string[] = []
  const fetchMock = mockApi({})
  fetchMock.mockImplementation(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost')
    if (url.pathname === '/api/circles') return json(200, { circles: [circle] })
    if (url.pathname !== '/api/items') throw new Error(`Unexpected request: ${url.pathname}`)
    queries.push(url.search.slice(1))
    const items = answer(url.searchParams)
    return json(200, { items, total: items.length })
  })
  return queries
}

beforeEach(() => startSession(validToken(), testUser))
afterEach(() => vi.unstubAllGlobals())

describe('/items: search, filters and order in the URL (issue 23)', () => {
  it("asks for the user's own items by default and announces the count", async () => {
    const queries = api(() => [item(1, 'Cordless drill'), item(2, 'Ladder')])
    await renderPages({ '/items': ItemsPage }, '/items', { namespaces: ['items', 'loans'] })
    expect(await screen.findByText('2 items')).toHaveProperty('role', 'status')
    expect(queries[0]).toBe('holder=me&sort=newest&limit=24')
    expect(screen.getByRole('searchbox', { name: 'Search items' })).toBeTruthy()
    expect(screen.getByRole('search', { name: 'Item search' })).toBeTruthy()
  })

  it('starts from the link: the fields show it and the API gets it', async () => {
    const queries = api(() => [item(1, 'Cordless drill')])
    await renderPages({ '/items': ItemsPage }, `/items?q=drill&state=pending&sort=name&circle=${CIRCLE}`, {
      namespaces: ['items', 'loans'],
    })
    await screen.findByText('1 item matches')
    expect(queries[0]).toBe(`q=drill&circle=${CIRCLE}&holder=me&state=pending&sort=name&limit=24`)
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('drill')
    expect((screen.getByRole('combobox', { name: 'State' }) as HTMLSelectElement).value).toBe('pending')
    expect((screen.getByRole('combobox', { name: 'Sort by' }) as HTMLSelectElement).value).toBe('name')
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: 'Circle' }) as HTMLSelectElement).value).toBe(CIRCLE),
    )
  })

  it('puts a chosen filter and the typed words into the URL', async () => {
    api(() => [item(1, 'Cordless drill')])
    const { router } = await renderPages({ '/items': ItemsPage }, '/items', {
      namespaces: ['items', 'loans'],
    })
    await screen.findByText('1 item')
    fireEvent.change(screen.getByRole('combobox', { name: 'Held by' }), { target: { value: 'all' } })
    await waitFor(() => expect(router.location.search).toBe('?holder=all'))
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'drill' } })
    fireEvent.submit(screen.getByRole('search'))
    await waitFor(() => expect(router.location.search).toBe('?q=drill&holder=all'))
    await screen.findByText('1 item matches')
  })

  it("shows 'No items match' with a way to clear the filters, which keeps the order", async () => {
    api((query) => (query.get('q') ? [] : [item(1, 'Cordless drill')]))
    const { router } = await renderPages({ '/items': ItemsPage }, '/items?q=zebra&sort=name', {
      namespaces: ['items', 'loans'],
    })
    const empty = await screen.findByRole('heading', { name: 'No items match' })
    expect(await screen.findByText('0 items match')).toBeTruthy()
    const panel = empty.parentElement as HTMLElement
    fireEvent.click(within(panel).getByRole('button', { name: 'Clear filters' }))
    await screen.findByRole('link', { name: /Cordless drill/ })
    expect(router.location.search).toBe('?sort=name')
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('')
  })

  it("keeps the spec's empty state for a user without items", async () => {
    api(() => [])
    await renderPages({ '/items': ItemsPage }, '/items', { namespaces: ['items', 'loans'] })
    expect(await screen.findByRole('heading', { name: 'No items yet' })).toBeTruthy()
    expect(screen.queryByRole('heading', { name: 'No items match' })).toBeNull()
  })

  it('speaks German', async () => {
    api(() => [item(1, 'Bohrmaschine')])
    await renderPages({ '/items': ItemsPage }, '/items?state=available', {
      language: 'de',
      namespaces: ['items', 'loans'],
    })
    expect(await screen.findByText('1 Gegenstand passt')).toBeTruthy()
    expect(screen.getByRole('searchbox', { name: 'Gegenstände suchen' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Filter zurücksetzen' })).toBeTruthy()
  })
})

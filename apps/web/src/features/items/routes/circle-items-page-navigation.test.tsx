import type { TCircleDetail, TItem } from '@circles/shared'
import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { json, mockApi, sentBodies } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testItem } from '@/test/items'
import { testUser, validToken } from '@/test/tokens'
import { CircleItemsPage } from './circle-items-page'

const CIRCLE = '11111111-1111-4111-8111-111111111111'
const ITEM = '33333333-3333-4333-8333-333333333333'

const circle: TCircleDetail = {
  id: CIRCLE,
  name: 'Linden Street',
  description: null,
  adminId: testUser.id,
  createdAt: '2026-11-01T10:00:00.000Z',
  memberCount: 1,
  items: [],
  users: [],
} as unknown as TCircleDetail

const item = (name = 'Cordless drill'): TItem => testItem({ id: ITEM, circleId: CIRCLE, name })

function api(items: TItem[] = [item()]) {
  return mockApi({
    [`GET /api/circles/${CIRCLE}`]: () => json(200, { circle }),
    // The list asks with the search's query (sort, page): any query answers the circle's items.
    [`GET /api/items/circle/${CIRCLE}?*`]: () => json(200, { items, total: items.length }),
    [`GET /api/items/${ITEM}`]: () => json(200, { item: item() }),
    'POST /api/items': () => json(201, { item: item('Ladder') }),
    [`PUT /api/items/${ITEM}`]: () => json(200, { item: item('Drill, cordless') }),
  })
}

const render = (path: string, language: 'en' | 'de' = 'en') =>
  renderPages(
    { '/circle/:circleId/items': CircleItemsPage, '/circle/:circleId/items/:itemId/edit': CircleItemsPage },
    path,
    { namespaces: ['items', 'loans'], language },
  )

const fromCircle = `/circle/${CIRCLE}/items?add=1&from=${encodeURIComponent(`/circles/${CIRCLE}`)}`
const landed = () => screen.findByTestId('landed')

beforeEach(() => startSession(validToken(), testUser))
afterEach(() => vi.unstubAllGlobals())

describe("circle items page opened from the circle's Add item (issue 23)", () => {
  it('shows the form at once, its back link names the circle, Cancel returns to the circle', async () => {
    api()
    await render(fromCircle)
    const form = await screen.findByRole('form', { name: 'Add an item' })
    expect(within(form).getByLabelText('Name')).toBeTruthy()
    const back = await screen.findByRole('link', { name: 'Back to Linden Street' })
    expect(back.getAttribute('href')).toBe(`/circles/${CIRCLE}`)

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect((await landed()).textContent).toBe(`/circles/${CIRCLE}`)
  })

  it('returns to the circle after saving the new item', async () => {
    const fetchMock = api()
    await render(fromCircle)
    const form = await screen.findByRole('form', { name: 'Add an item' })
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Ladder' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Save item' }))
    expect((await landed()).textContent).toBe(`/circles/${CIRCLE}`)
    expect(sentBodies(fetchMock, 'POST /api/items')).toEqual([
      { circleId: CIRCLE, name: 'Ladder', description: null },
    ])
  })

  it('speaks German', async () => {
    api()
    await render(fromCircle, 'de')
    expect(await screen.findByRole('link', { name: 'Zurück zu Linden Street' })).toBeTruthy()
    expect(screen.getByRole('form', { name: 'Gegenstand hinzufügen' })).toBeTruthy()
  })

  it('ignores a from that leads out of the app: back to the dashboard, Cancel stays on the list', async () => {
    api()
    await render(`/circle/${CIRCLE}/items?add=1&from=${encodeURIComponent('https://evil.example/')}`)
    await screen.findByRole('form', { name: 'Add an item' })
    expect(screen.getByRole('link', { name: 'Back to dashboard' }).getAttribute('href')).toBe('/dashboard')
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Add an item' })).toBeNull())
    expect(screen.queryByTestId('landed')).toBeNull()
  })

  it('without add=1 shows the list, as before', async () => {
    api()
    await render(`/circle/${CIRCLE}/items`)
    await screen.findByText('Cordless drill')
    expect(screen.queryByRole('form', { name: 'Add an item' })).toBeNull()
  })
})

describe('saving an edit returns where the edit started (issue 23)', () => {
  it.each([`/items/${ITEM}`, '/items', `/circles/${CIRCLE}`])('from %s', async (from) => {
    api()
    await render(`/circle/${CIRCLE}/items/${ITEM}/edit?from=${encodeURIComponent(from)}`)
    const form = await screen.findByRole('form', { name: 'Add an item' })
    await waitFor(() =>
      expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('Cordless drill'),
    )
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Drill, cordless' } })
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }))
    expect((await landed()).textContent).toBe(from)
  })

  it('goes back to the circle items list when the edit has no from, as before', async () => {
    api()
    const { router } = await render(`/circle/${CIRCLE}/items/${ITEM}/edit`)
    const form = await screen.findByRole('form', { name: 'Add an item' })
    await waitFor(() =>
      expect((within(form).getByLabelText('Name') as HTMLInputElement).value).toBe('Cordless drill'),
    )
    fireEvent.click(within(form).getByRole('button', { name: 'Save changes' }))
    await waitFor(() => expect(router.location.pathname).toBe(`/circle/${CIRCLE}/items`))
  })
})

import { screen, waitFor } from '@/test/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { prefetchRouteData } from '@/app/route-table'
import { queryClient } from '@/lib/query-client'
import { startSession } from '@/lib/session'
import { callCount, json, mockApi } from '@/test/mock-api'
import { renderRoute } from '@/test/render-route'
import { TEST_CIRCLE_ID, TEST_ITEM_ID, testItem } from '@/test/items'
import { testUser, validToken } from '@/test/tokens'

const SLOW = { timeout: 5_000 }

afterEach(() => {
  vi.unstubAllGlobals()
  queryClient.clear()
})

/** Each request once: the page found the ones its screen data started, under the same keys. */
function expectEachOnce(fetchMock: ReturnType<typeof mockApi>, keys: string[]) {
  for (const key of keys) expect(callCount(fetchMock, key), key).toBe(1)
}

describe('a screen’s first requests, started beside its code (app/screen-data.ts)', () => {
  it('the dashboard’s go out before it renders, and it asks for none of them again', async () => {
    startSession(validToken(), testUser)
    const answers = {
      'GET /api/activities/recent': () => json(200, { activities: [] }),
      'GET /api/dashboard/stats': () => json(200, { totalCircles: 0, pendingHandovers: 0, ownedItems: 0 }),
      'GET /api/circles': () => json(200, { circles: [] }),
      'GET /api/handovers': () => json(200, { handovers: [] }),
      'GET /api/loans?role=borrowed&status=active': () => json(200, { loans: [] }),
      'GET /api/loans?role=lent&status=active': () => json(200, { loans: [] }),
      'GET /api/borrow-requests?role=of-me': () => json(200, { borrowRequests: [] }),
    }
    const fetchMock = mockApi(answers)
    prefetchRouteData('/dashboard', new URLSearchParams(), testUser.id)
    await waitFor(() => expectEachOnce(fetchMock, Object.keys(answers)))

    await renderRoute('/dashboard')
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome back, Anna Keller' }, SLOW),
    ).toBeTruthy()
    expect(await screen.findByText('Nothing is waiting for your answer.', {}, SLOW)).toBeTruthy()
    expectEachOnce(fetchMock, Object.keys(answers))
  })

  it('an item’s page finds its item, ownership, handovers and asks to borrow', async () => {
    startSession(validToken(), testUser)
    const answers = {
      [`GET /api/items/${TEST_ITEM_ID}`]: () => json(200, { item: testItem() }),
      [`GET /api/items/${TEST_ITEM_ID}/ownership-status`]: () =>
        json(200, { canDelete: true, ownership: 'COMPLETE', originalOwnerId: testUser.id }),
      [`GET /api/handovers/item/${TEST_ITEM_ID}`]: () => json(200, { handovers: [] }),
      [`GET /api/items/${TEST_ITEM_ID}/borrow-requests`]: () => json(200, { borrowRequests: [] }),
    }
    const fetchMock = mockApi(answers)
    prefetchRouteData(`/items/${TEST_ITEM_ID}`, new URLSearchParams(), testUser.id)
    await waitFor(() => expectEachOnce(fetchMock, Object.keys(answers)))

    await renderRoute(`/items/${TEST_ITEM_ID}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Cordless drill' }, SLOW)).toBeTruthy()
    expectEachOnce(fetchMock, Object.keys(answers))
  })

  it('a handover page also asks for the circle’s members, once the item has named its circle', async () => {
    startSession(validToken(), testUser)
    const members = [{ userId: testUser.id, name: testUser.name, email: testUser.email, role: 'ADMIN' }]
    const answers = {
      [`GET /api/items/${TEST_ITEM_ID}`]: () => json(200, { item: testItem() }),
      [`GET /api/items/${TEST_ITEM_ID}/ownership-status`]: () => json(200, { hasFullOwnership: true }),
      [`GET /api/handovers/item/${TEST_ITEM_ID}`]: () => json(200, { handovers: [] }),
      [`GET /api/items/${TEST_ITEM_ID}/borrow-requests`]: () => json(200, { borrowRequests: [] }),
      [`GET /api/circles/${TEST_CIRCLE_ID}`]: () =>
        json(200, { circle: { id: TEST_CIRCLE_ID, name: 'Linden Street', users: members } }),
    }
    const fetchMock = mockApi(answers)
    prefetchRouteData(`/items/${TEST_ITEM_ID}/handover`, new URLSearchParams(), testUser.id)
    await waitFor(() => expectEachOnce(fetchMock, Object.keys(answers)))
  })

  it('a search finds its results under the query string it was opened with', async () => {
    startSession(validToken(), testUser)
    const answers = {
      'GET /api/items?q=drill&holder=me&sort=name&limit=24': () =>
        json(200, { items: [testItem()], total: 1 }),
      'GET /api/circles': () => json(200, { circles: [] }),
    }
    const fetchMock = mockApi(answers)
    prefetchRouteData('/items', new URLSearchParams('q=drill&sort=name'), testUser.id)
    await waitFor(() => expectEachOnce(fetchMock, Object.keys(answers)))

    await renderRoute('/items?q=drill&sort=name')
    expect(await screen.findByRole('heading', { level: 2, name: 'Cordless drill' }, SLOW)).toBeTruthy()
    expectEachOnce(fetchMock, Object.keys(answers))
  })

  it('nothing for a screen without a session’s data or with an id that cannot be one', () => {
    const fetchMock = mockApi({})
    prefetchRouteData('/login', new URLSearchParams(), testUser.id)
    prefetchRouteData('/circle/not-a-circle', new URLSearchParams(), testUser.id)
    expect(fetchMock).not.toHaveBeenCalled()
  })
})

// Helpers for handovers.spec.ts: items and handover requests made through the real API (no mocks).
import type { APIRequestContext, Browser, Page } from '@playwright/test'
import { decidedConsentCookie, expect, markNotAutomated } from '../support/fixtures'
import type { Session } from './circles-support'

const auth = (session: Session) => ({ Authorization: `Bearer ${session.token}` })

/** POST /api/items as `session`; returns the new item's id. */
export async function createItem(
  request: APIRequestContext,
  session: Session,
  circleId: string,
  data: { name: string; description?: string },
): Promise<string> {
  const response = await request.post('/api/items', { data: { ...data, circleId }, headers: auth(session) })
  expect(response.status(), await response.text()).toBe(201)
  return ((await response.json()) as { item: { id: string } }).item.id
}

/** POST /api/handovers as the owner; returns the PENDING handover's id. */
export async function requestHandover(
  request: APIRequestContext,
  owner: Session,
  data: { itemId: string; receiverId: string; requesterComment?: string; secretMessage?: string },
): Promise<string> {
  const response = await request.post('/api/handovers', { data, headers: auth(owner) })
  expect(response.status(), await response.text()).toBe(201)
  return ((await response.json()) as { handover: { id: string } }).handover.id
}

/**
 * A second person at another browser: a context of its own, consent decided, as the fixture does. When
 * the suite runs against two servers on one PostgreSQL (E2E_SECOND_BASE_URL), this person uses the
 * second one, as behind a load balancer.
 */
export async function secondBrowser(browser: Browser, firstBaseURL: string) {
  const baseURL = process.env.E2E_SECOND_BASE_URL ?? firstBaseURL
  const context = await browser.newContext({ baseURL })
  await context.addInitScript(markNotAutomated)
  await context.addCookies([decidedConsentCookie(baseURL)])
  return { context, page: await context.newPage() }
}

/**
 * The size of the circle's checkpoint this browser remembers (IndexedDB `circles-ledger`), or null.
 * Opens the database only once the app created it: opening it first would create it without its store.
 */
export function rememberedCheckpointSize(page: Page, circleId: string): Promise<number | null> {
  return page.evaluate(async (id) => {
    if (!(await indexedDB.databases()).some((d) => d.name === 'circles-ledger')) return null
    return new Promise<number | null>((resolve, reject) => {
      const open = indexedDB.open('circles-ledger')
      open.onerror = () => reject(open.error)
      open.onsuccess = () => {
        const db = open.result
        const get = db.transaction('checkpoints').objectStore('checkpoints').get(id)
        get.onsuccess = () => {
          db.close()
          resolve((get.result as { size: number } | undefined)?.size ?? null)
        }
        get.onerror = () => reject(get.error)
      }
    })
  }, circleId)
}

/**
 * Resolves once the server's `connected` event reached the page, over long-polling or the websocket:
 * from then on, events for this person arrive live. Call it before the navigation that connects; a
 * request made earlier is not lost for the page (it refetches on connect), only its toast is.
 */
export function liveConnection(page: Page): Promise<void> {
  const connected = (payload: string | Buffer) => String(payload).includes('["connected"')
  return new Promise<void>((resolve) => {
    page.on('websocket', (socket) => {
      socket.on('framereceived', ({ payload }) => {
        if (connected(payload)) resolve()
      })
    })
    page.on('response', (response) => {
      if (!response.url().includes('/socket.io/') || response.request().method() !== 'GET') return
      response.text().then(
        (body) => {
          if (connected(body)) resolve()
        },
        () => {},
      )
    })
  })
}

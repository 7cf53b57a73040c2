// Offline reading (issue 27, docs/decisions/0054), in Chromium against the real server: the pages a
// person visited open offline from this device's stored queries, with 'Offline, as of …', the ledger
// checked on the stored proofs, actions disabled with the reason; back online all works again; signing
// out leaves nothing of the person on the device.
import type { APIRequestContext, Page } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import { expectAccessible, screenshotScreen } from './auth-support'
import { createCircle, createSignedInUser, joinCircle, type Session, signInAs } from './circles-support'
import { createItem, requestHandover } from './handovers-support'

const auth = (session: Session) => ({ Authorization: `Bearer ${session.token}` })

async function circleWithBlocks(request: APIRequestContext) {
  const ida = await createSignedInUser(request, 'offline-ida', 'Ida Owner')
  const ben = await createSignedInUser(request, 'offline-ben', 'Ben Neighbour')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)
  for (const name of ['Ladder', 'Drill']) {
    const itemId = await createItem(request, ida, circleId, { name })
    const id = await requestHandover(request, ida, { itemId, receiverId: ben.user.id })
    const answer = await request.put(`/api/handovers/${id}/status`, {
      data: { status: 'CONFIRMED' },
      headers: auth(ben),
    })
    expect(answer.status(), await answer.text()).toBe(200)
  }
  const itemId = await createItem(request, ida, circleId, { name: 'Wheelbarrow' })
  return { ida, circleId, itemId }
}

/** How many entries the stored query cache holds (IndexedDB 'circles-offline'). */
function storedQueryEntries(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('circles-offline')
        open.onupgradeneeded = () => open.result.createObjectStore('query-cache')
        open.onerror = () => resolve(-1)
        open.onsuccess = () => {
          const db = open.result
          if (!db.objectStoreNames.contains('query-cache')) return resolve(0)
          const count = db.transaction('query-cache').objectStore('query-cache').count()
          count.onsuccess = () => {
            resolve(count.result)
            db.close()
          }
        }
      }),
  )
}

/** The query keys of the stored cache's entry (IndexedDB 'circles-offline'), as JSON. */
function storedQueryKeys(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const open = indexedDB.open('circles-offline')
        open.onupgradeneeded = () => open.result.createObjectStore('query-cache')
        open.onsuccess = () => {
          const db = open.result
          if (!db.objectStoreNames.contains('query-cache')) return resolve([])
          const all = db.transaction('query-cache').objectStore('query-cache').getAll()
          all.onsuccess = () => {
            const entries = all.result as { clientState: { queries: { queryKey: unknown }[] } }[]
            resolve(entries.flatMap((e) => e.clientState.queries.map((q) => JSON.stringify(q.queryKey))))
            db.close()
          }
        }
      }),
  )
}

const offlineNotice = (page: Page) => page.getByTestId('offline-notice')
const deviceCheck = (page: Page) => page.getByTestId('ledger-device-check')

async function visitOnline(page: Page, circleId: string, itemId: string) {
  await page.goto('/dashboard')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  // The service worker controls the pages from here on (it caches the pages visited).
  await page.evaluate(() => navigator.serviceWorker.ready)
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
  await page.goto('/dashboard')
  await expect(page.getByText('Linden Street').first()).toBeVisible()
  await page.goto(`/items/${itemId}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Wheelbarrow' })).toBeVisible()
  await expect
    .poll(() => storedQueryKeys(page))
    .toEqual(
      expect.arrayContaining([
        JSON.stringify(['items', 'detail', itemId]),
        JSON.stringify(['items', 'lending', 'item-asks', itemId]),
      ]),
    )
  await page.goto(`/blockchain/circle/${circleId}`)
  await expect(deviceCheck(page).getByText('Verified on this device')).toBeVisible()
  await expect(page.getByText('In the signed log')).toHaveCount(2)
  await expect.poll(() => storedQueryKeys(page)).toContain(JSON.stringify(['blocks', circleId, null]))
  expect(await storedQueryEntries(page)).toBe(1)
}

test('the visited pages open offline with their data, the ledger checked on stored proofs, actions disabled', async ({
  page,
  context,
  request,
  axe,
}) => {
  test.setTimeout(120_000)
  const { ida, circleId, itemId } = await circleWithBlocks(request)
  await signInAs(page, ida)
  await visitOnline(page, circleId, itemId)

  await context.setOffline(true)
  await page.reload()
  await expect(offlineNotice(page)).toContainText(/Offline, as of .*ago|Offline, as of now/)
  await expect(page.getByText('In the signed log')).toHaveCount(2)
  await expect(
    deviceCheck(page).getByText(/Linden Street: checked offline against the signed checkpoint of 2 blocks/),
  ).toBeVisible()
  const verify = page.getByRole('button', { name: 'Verify chain' })
  await expect(verify).toBeDisabled()
  await expect(verify).toHaveAttribute('title', "You're offline: connect to do this.")
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'offline-ledger-en-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'offline-ledger-en-390')
  await page.setViewportSize({ width: 1280, height: 720 })

  // Another page, offline: the item with its actions disabled.
  await page.goto(`/items/${itemId}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Wheelbarrow' })).toBeVisible()
  await expect(offlineNotice(page)).toContainText('Offline, as of')
  const remove = page.getByRole('button', { name: 'Delete item' })
  await expect(remove).toBeDisabled()
  await expect(remove).toHaveAttribute('title', "You're offline: connect to do this.")
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'offline-item-en-1280')

  // German.
  await page.evaluate(() => localStorage.setItem('language', 'de'))
  await page.goto(`/blockchain/circle/${circleId}`)
  await expect(offlineNotice(page)).toContainText('Offline, Stand')
  await expect(
    deviceCheck(page).getByText(/offline geprüft gegen den signierten Prüfpunkt mit 2 Blöcken/),
  ).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'offline-ledger-de-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'offline-ledger-de-390')
  await page.setViewportSize({ width: 1280, height: 720 })
  await page.evaluate(() => localStorage.setItem('language', 'en'))

  // Back online: the marker goes, the check asks the server again, actions work.
  await context.setOffline(false)
  await page.goto(`/blockchain/circle/${circleId}`)
  await expect(offlineNotice(page)).toHaveCount(0)
  await expect(
    deviceCheck(page).getByText(/Linden Street: signed checkpoint of 2 blocks, checked/),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Verify chain' })).toBeEnabled()
  // Going offline while the page is open: the marker comes without a reload.
  await context.setOffline(true)
  await expect(offlineNotice(page)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Verify chain' })).toBeDisabled()
  await context.setOffline(false)
  await expect(offlineNotice(page)).toHaveCount(0)
  await page.getByRole('button', { name: 'Verify chain' }).click()
  await expect(page.getByText('2 blocks verified, 0 failing.')).toBeVisible()
})

test('the sign-in page offline says so; after signing out nothing of the person is shown offline', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000)
  const { ida, circleId, itemId } = await circleWithBlocks(request)
  await signInAs(page, ida)
  await visitOnline(page, circleId, itemId)

  await page.getByRole('button', { name: 'Log out' }).click()
  await page.waitForURL((url) => url.pathname === '/')
  expect(await storedQueryEntries(page)).toBe(0)
  // The page caches were deleted; what the worker cached since is the public landing page alone.
  const cachedPages = await page.evaluate(async () => {
    const urls: string[] = []
    for (const name of await caches.keys()) {
      if (!name.startsWith('circles-pages')) continue
      for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname)
    }
    return urls
  })
  expect(cachedPages.filter((path) => path !== '/')).toEqual([])

  await context.setOffline(true)
  await page.goto(`/blockchain/circle/${circleId}`).catch(() => undefined)
  await expect(page.getByText('Ladder')).toHaveCount(0)
  await expect(page.getByText('Linden Street')).toHaveCount(0)

  await page.goto('/login').catch(() => undefined)
  await expect(offlineNotice(page)).toHaveText(/You're offline\s*Changes need a connection\./)
  await expect(page.getByRole('button', { name: 'Use a passkey' })).toBeDisabled()
  await expect(page.getByTestId('offline-reason')).toHaveText(
    "You're offline: connect to the internet to sign in.",
  )
  await screenshotScreen(page, 'offline-login-en-1280')
  await context.setOffline(false)
})

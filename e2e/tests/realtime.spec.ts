import type { Page } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import { expectAccessible, screenshotScreen, toast, useGerman } from './auth-support'
import {
  createCircle,
  createSignedInUser,
  joinCircle,
  pagesWithoutSessionCookie,
  signInAs,
} from './circles-support'
import { createItem, liveConnection, requestHandover, secondBrowser } from './handovers-support'

// Two people side by side, each in their own browser: what one does arrives on the other's open pages
// without a reload, through socket.io against the real server (or, with E2E_SECOND_BASE_URL, across two
// servers on one PostgreSQL: Ida on the first, Ben on the second).

const stat = (page: Page, key: 'totalCircles' | 'pendingHandovers' | 'ownedItems') =>
  page.getByTestId(`stat-${key}`)

test("Ben sees Ida's request arrive live; Ida sees Ben's confirmation arrive live", async ({
  page,
  request,
  browser,
  baseURL,
  axe,
}) => {
  test.setTimeout(120_000)
  const ida = await createSignedInUser(request, 'live-ida', 'Ida Owner')
  const ben = await createSignedInUser(request, 'live-ben', 'Ben Neighbour')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)
  const itemId = await createItem(request, ida, circleId, { name: 'Ladder' })

  // Ben has his dashboard and the ladder's page open.
  const second = await secondBrowser(browser, baseURL!)
  const benDashboard = second.page
  await signInAs(benDashboard, ben)
  await benDashboard.goto('/dashboard')
  await expect(
    benDashboard.getByRole('link', { name: /Ida Owner added Ladder to Linden Street/ }),
  ).toBeVisible()
  await expect(stat(benDashboard, 'pendingHandovers')).toHaveText('0')
  const benItem = await second.context.newPage()
  await benItem.goto(`/items/${itemId}`)
  await expect(benItem.getByRole('heading', { level: 1, name: 'Ladder' })).toBeVisible()
  await expect(benItem.getByText('Item Handover Received')).toHaveCount(0)

  // Ida asks, from her browser, with her dashboard open in a second tab.
  await signInAs(page, ida)
  const idaDashboard = await page.context().newPage()
  await idaDashboard.goto('/dashboard')
  await expect(stat(idaDashboard, 'ownedItems')).toHaveText('1')
  await page.goto(`/items/${itemId}/handover`)
  await page.getByLabel('Receiver', { exact: true }).selectOption({ label: 'Ben Neighbour' })
  await page.getByLabel('Secret message', { exact: true }).fill('Shed key under the pot')
  await page.getByRole('button', { name: 'Send handover request' }).click()
  await expect(page.getByText('Item Handover Sent')).toBeVisible()

  // Ben's pages change on their own.
  const request_ = benDashboard.getByRole('link', { name: /Ida Owner wants to hand you Ladder/ })
  await expect(request_).toBeVisible()
  await expect(request_).toHaveAttribute('href', `/items/${itemId}`)
  await expect(toast(benDashboard, 'info', 'Ida Owner wants to hand you Ladder')).toBeVisible()
  await expect(stat(benDashboard, 'pendingHandovers')).toHaveText('1')
  await expect(benItem.getByText('Item Handover Received')).toBeVisible()
  await expect(stat(idaDashboard, 'pendingHandovers')).toHaveText('1')
  // The secret is Ben's to read where he answers ('Waiting for you'), never in the feed.
  await expect(
    benDashboard.getByRole('list', { name: 'Waiting for you' }).getByText('Shed key under the pot'),
  ).toBeVisible()
  await expect(
    benDashboard.getByRole('list', { name: 'Recent activity' }).getByText('Shed key under the pot'),
  ).toHaveCount(0)
  await expectAccessible(benDashboard, axe)
  await screenshotScreen(benDashboard, 'dashboard-live-en-1280')

  // Ben accepts on the item page; Ida's item page and dashboard follow.
  await benItem
    .getByRole('region', { name: 'Item Handover Received' })
    .getByRole('button', { name: 'Accept' })
    .click()
  await expect(benItem.getByText('Handover confirmed successfully')).toBeVisible()
  await expect(page.getByRole('listitem').getByText('Accepted', { exact: true })).toBeVisible()
  const confirmed = /Ladder was handed over from Ida Owner to Ben Neighbour/
  await expect(idaDashboard.getByRole('link', { name: confirmed })).toBeVisible()
  await expect(stat(idaDashboard, 'ownedItems')).toHaveText('0')
  await expect(stat(idaDashboard, 'pendingHandovers')).toHaveText('0')
  await expect(benDashboard.getByRole('link', { name: confirmed })).toBeVisible()
  await expect(stat(benDashboard, 'ownedItems')).toHaveText('1')

  await benDashboard.setViewportSize({ width: 390, height: 844 })
  await expectAccessible(benDashboard, axe)
  await screenshotScreen(benDashboard, 'dashboard-live-en-390')
  await second.context.close()
})

test('a new user sees the first steps; the dashboard in German at 1280 and 390 px', async ({
  page,
  request,
  axe,
}) => {
  const newcomer = await createSignedInUser(request, 'first-run', 'Nora Neu')
  await useGerman(page)
  await signInAs(page, newcomer)
  await page.goto('/dashboard')
  await expect(page.getByRole('heading', { name: 'Fang mit einem Kreis an' })).toBeVisible()
  await expect(stat(page, 'totalCircles')).toHaveText('0')
  await expect(page.getByText('Noch ist nichts passiert')).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'dashboard-first-run-de-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'dashboard-first-run-de-390')

  await page.getByRole('link', { name: 'Deinen ersten Kreis gründen' }).click()
  await expect(page).toHaveURL(/\/circles\/create$/)
})

test("says 'Failed to load dashboard data' when the server fails, and loads on retry", async ({
  page,
  request,
}) => {
  const someone = await createSignedInUser(request, 'dash-error', 'Erin Error')
  // Only the button asks again here: the real-time connection, once up, would refetch the dashboard too.
  await page.route('**/socket.io/**', (route) => route.abort('connectionrefused'))
  let fail = true
  await page.route('**/api/dashboard/stats', (route) =>
    fail ? route.fulfill({ status: 500, json: { message: 'Internal Server Error' } }) : route.fallback(),
  )
  await signInAs(page, someone)
  await pagesWithoutSessionCookie(page)
  await page.goto('/dashboard')
  const alert = page.getByRole('alert').filter({ hasText: 'Failed to load dashboard data' })
  await expect(alert).toBeVisible()
  await expect(stat(page, 'totalCircles')).toHaveText('-')
  fail = false
  await alert.getByRole('button', { name: 'Try again' }).click()
  await expect(stat(page, 'totalCircles')).toHaveText('0')
  await expect(alert).toHaveCount(0)
})

test("says 'Unable to establish real-time connection' after five failed attempts", async ({
  page,
  request,
}) => {
  const someone = await createSignedInUser(request, 'socket-down', 'Sam Offline')
  await page.clock.install()
  await page.route('**/socket.io/**', (route) => route.abort('connectionrefused'))
  await signInAs(page, someone)
  await page.goto('/dashboard')
  await expect(stat(page, 'totalCircles')).toHaveText('0')
  const giveUp = toast(page, 'error', 'Unable to establish real-time connection')
  // 1 + 2 + 4 + 8 + 16 s, plus jitter: well within two minutes of the page's clock.
  for (let i = 0; i < 24 && (await giveUp.count()) === 0; i++) await page.clock.runFor(5_000)
  await expect(giveUp).toBeVisible()
})

test('Ben hears of a request made through the API while he reads the ledger page', async ({
  request,
  browser,
  baseURL,
}) => {
  const ida = await createSignedInUser(request, 'live-api-ida', 'Ida Owner')
  const ben = await createSignedInUser(request, 'live-api-ben', 'Ben Neighbour')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)
  const itemId = await createItem(request, ida, circleId, { name: 'Tent' })
  const second = await secondBrowser(browser, baseURL!)
  await signInAs(second.page, ben)
  const live = liveConnection(second.page)
  await second.page.goto('/blockchain')
  await expect(second.page.getByRole('heading', { level: 1 })).toBeVisible()
  await live
  await requestHandover(request, ida, { itemId, receiverId: ben.user.id })
  const notice = toast(second.page, 'info', 'Ida Owner wants to hand you Tent')
  await expect(notice).toBeVisible()
  await notice.getByRole('button', { name: 'View' }).click()
  await expect(second.page).toHaveURL(new RegExp(`/items/${itemId}$`))
  await expect(second.page.getByText('Item Handover Received')).toBeVisible()
  await second.context.close()
})

test('what happens before the live connection is up still reaches the page', async ({ request, page }) => {
  const ida = await createSignedInUser(request, 'gap-ida', 'Ida Owner')
  const ben = await createSignedInUser(request, 'gap-ben', 'Ben Neighbour')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)
  await createItem(request, ida, circleId, { name: 'Tent' })
  await signInAs(page, ben)

  // A slow network: Ben's live connection waits until Ida has added an item after his list was read.
  let open!: () => void
  const gate = new Promise<void>((resolve) => (open = resolve))
  await page.route('**/socket.io/**', async (route) => {
    await gate
    await route.continue()
  })
  const listReads: string[] = []
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === `/api/items/circle/${circleId}`) listReads.push(r.url())
  })
  await page.goto(`/circle/${circleId}/items`)
  await expect(page.getByRole('link', { name: 'Tent' }).first()).toBeVisible()
  // The list came read by the server, with the page (docs/decisions/0068).
  expect(listReads).toHaveLength(0)
  await createItem(request, ida, circleId, { name: 'Kayak' })
  const live = liveConnection(page)
  open()
  await live
  // The server sent what came since it read the page's list (docs/decisions/0067, 0068): the list reads
  // again for that event, and shows the kayak.
  await expect(page.getByRole('link', { name: 'Kayak' }).first()).toBeVisible()
  expect(listReads).toHaveLength(1)
})

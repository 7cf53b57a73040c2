// Web Push (issue 27, docs/decisions/0053). Chromium's real pushManager.subscribe needs Google's push
// service (no network here), so the browser's device is registered the way a real one looks: keys made
// by the test (a P-256 pair and an auth secret) and an endpoint on the test's own push service, POSTed
// through the app's route with the person's session. The server's push goes there; the test decrypts it
// (RFC 8291) and hands the plaintext to the browser's service worker with CDP
// ServiceWorker.deliverPushMessage, which is what the browser does after decrypting. Covered: the
// server's push, the worker's `push` handler and the shown notification, its click handler taking the
// open window to the page. Not covered: the browser's own decryption, and a real user's click (the
// click is dispatched in the worker with the shown notification; focus() needs a real one).
import type { Page } from '@playwright/test'
import { expect, screenshot, test } from '../support/fixtures'
// The server tests' push service (e2e/tsconfig.json includes that one file).
import {
  deviceKeys,
  startPushEndpoint,
  type PushEndpoint,
} from '../../apps/server/test/support/push-endpoint'
import { createCircle, createSignedInUser, joinCircle, signInAs } from './circles-support'
import { createItem, requestHandover } from './handovers-support'

let push: PushEndpoint
test.beforeAll(async () => {
  push = await startPushEndpoint()
})
test.afterAll(async () => {
  await push.close()
})

test('a handover request arrives as a notice on the device, and its click opens the request', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const ida = await createSignedInUser(request, 'push-ida', 'Ida Owner')
  const ben = await createSignedInUser(request, 'push-ben', 'Ben Neighbour')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)

  await page.context().grantPermissions(['notifications'], { origin: baseURL! })
  const cdp = await page.context().newCDPSession(page)
  const registrations: { registrationId: string; scopeURL: string }[] = []
  cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations))
  await signInAs(page, ben)
  await page.goto('/dashboard')
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
  await cdp.send('ServiceWorker.enable')
  await expect.poll(() => registrations.find((r) => r.scopeURL === `${baseURL}/`)).toBeTruthy()
  const registrationId = registrations.find((r) => r.scopeURL === `${baseURL}/`)!.registrationId

  const device = deviceKeys()
  const endpoint = push.endpointUrl()
  const subscribed = await request.post('/api/push/subscriptions', {
    data: { endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
    headers: { Authorization: `Bearer ${ben.token}` },
  })
  expect(subscribed.status(), await subscribed.text()).toBe(200)

  const drill = await createItem(request, ida, circleId, { name: 'Drill' })
  await requestHandover(request, ida, { itemId: drill, receiverId: ben.user.id })
  await expect.poll(() => push.received.filter((r) => r.path === new URL(endpoint).pathname).length).toBe(1)
  const plaintext = device.decrypt(push.received.find((r) => r.path === new URL(endpoint).pathname)!.body)
  expect(JSON.parse(plaintext)).toMatchObject({ title: 'Ida Owner wants to hand you Drill' })

  await cdp.send('ServiceWorker.deliverPushMessage', { origin: baseURL!, registrationId, data: plaintext })
  const shown = async () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        tag: n.tag,
        url: (n.data as { url: string }).url,
      })),
    )
  await expect.poll(shown).toHaveLength(1)
  expect((await shown())[0]).toEqual({
    title: 'Ida Owner wants to hand you Drill',
    body: 'Accept or reject the handover in Circles.',
    tag: `handoverRequests:/items/${drill}/handover`,
    url: `/items/${drill}/handover`,
  })

  // The click, dispatched in the worker with the notification it showed.
  const worker = page.context().serviceWorkers()[0]
  expect(worker).toBeTruthy()
  await worker!.evaluate(async () => {
    // The worker's own types are not in this project's lib; what is used is named here.
    const scope = self as unknown as {
      registration: { getNotifications(): Promise<unknown[]> }
      dispatchEvent(event: Event): boolean
      NotificationEvent: new (type: string, init: { notification: unknown }) => Event
    }
    const [notification] = await scope.registration.getNotifications()
    scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification }))
  })
  await expect(page).toHaveURL(new RegExp(`/items/${drill}/handover$`))
})

/**
 * Stands in for Chromium's pushManager (its subscribe needs Google's service): subscribe answers a
 * subscription with the test's endpoint and keys, as a real one would look; `permission` is what
 * Notification.requestPermission answers.
 */
async function fakePushManager(
  page: Page,
  device: { endpoint: string; p256dh: string; auth: string },
  permission: 'granted' | 'denied',
) {
  await page.addInitScript(
    ({ device, permission }) => {
      // Kept across reloads, as the browser keeps a subscription.
      const KEY = 'e2e-fake-push-subscription'
      const subscription = {
        endpoint: device.endpoint,
        toJSON: () => ({
          endpoint: device.endpoint,
          expirationTime: null,
          keys: { p256dh: device.p256dh, auth: device.auth },
        }),
        unsubscribe: async () => {
          sessionStorage.removeItem(KEY)
          return true
        },
      }
      PushManager.prototype.subscribe = async function () {
        sessionStorage.setItem(KEY, '1')
        return subscription as unknown as PushSubscription
      }
      PushManager.prototype.getSubscription = async function () {
        return (sessionStorage.getItem(KEY) ? subscription : null) as PushSubscription | null
      }
      Notification.requestPermission = async () => permission
    },
    { device, permission },
  )
}

test('the profile turns notices on and off for this device', async ({ page, request, axe }) => {
  test.setTimeout(90_000)
  const ben = await createSignedInUser(request, 'push-profile', 'Ben Neighbour')
  const keys = deviceKeys()
  const endpoint = push.endpointUrl()
  await fakePushManager(page, { endpoint, p256dh: keys.p256dh, auth: keys.auth }, 'granted')
  await signInAs(page, ben)
  await page.goto('/profile')
  const card = page.locator('[data-device-push]')
  await expect(card.getByRole('heading', { name: 'Notices on this device' })).toBeVisible()
  await expect(page.getByLabel('Push: someone wants to hand me something')).toBeChecked()
  await axe.expectNoA11yViolations(page)
  await card.getByRole('button', { name: 'Turn on notices on this device' }).click()
  await expect(card.getByText('Notices are on for this device.')).toBeVisible()
  const status = async () =>
    (
      await (
        await request.post('/api/push/subscriptions/status', {
          data: { endpoint },
          headers: { Authorization: `Bearer ${ben.token}` },
        })
      ).json()
    ).subscribed
  expect(await status()).toBe(true)
  await page.reload()
  await expect(card.getByRole('button', { name: 'Turn off' })).toBeVisible()
  await screenshot(page, 'push-profile-on-en-1280')
  await card.getByRole('button', { name: 'Turn off' }).click()
  await expect(card.getByRole('button', { name: 'Turn on notices on this device' })).toBeVisible()
  expect(await status()).toBe(false)
})

test('a blocked permission shows how to allow it', async ({ page, request }) => {
  const ben = await createSignedInUser(request, 'push-denied', 'Ben Neighbour')
  const keys = deviceKeys()
  await fakePushManager(
    page,
    { endpoint: push.endpointUrl(), p256dh: keys.p256dh, auth: keys.auth },
    'denied',
  )
  await page.setViewportSize({ width: 390, height: 844 })
  await signInAs(page, ben)
  await page.goto('/profile')
  const card = page.locator('[data-device-push]')
  await card.getByRole('button', { name: 'Turn on notices on this device' }).click()
  await expect(card.getByText(/Notices are blocked for Circles in this browser/)).toBeVisible()
  await expect(card).toHaveAttribute('data-device-push', 'denied')
  await screenshot(page, 'push-profile-denied-en-390')
})

test.describe('in Safari on an iPhone, in a tab', () => {
  test.use({
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  })

  test('the profile says notices need the installed app, in German', async ({ page, request, axe }) => {
    const ben = await createSignedInUser(request, 'push-ios', 'Ben Nachbar')
    await page.addInitScript(() => window.localStorage.setItem('language', 'de'))
    await signInAs(page, ben)
    await page.goto('/profile')
    const card = page.locator('[data-device-push]')
    await expect(card).toHaveAttribute('data-device-push', 'needs-install')
    await expect(card.getByText(/brauchen Benachrichtigungen die installierte App/)).toBeVisible()
    await expect(card.getByRole('button', { name: /Benachrichtigungen auf diesem Gerät/ })).toHaveCount(0)
    await axe.expectNoA11yViolations(page)
    await screenshot(page, 'push-profile-ios-de-390')
    await page.setViewportSize({ width: 1280, height: 900 })
    await screenshot(page, 'push-profile-ios-de-1280')
  })
})

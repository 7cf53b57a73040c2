// Web Push (issue 27, docs/decisions/0053). Chromium's real pushManager.subscribe needs Google's push
// service (no network here), so the browser's device is registered the way a real one looks: keys made
// by the test (a P-256 pair and an auth secret) and an endpoint on the test's own push service, POSTed
// through the app's route with the person's session. The server's push goes there; the test decrypts it
// (RFC 8291) and hands the plaintext to the browser's service worker with CDP
// ServiceWorker.deliverPushMessage, which is what the browser does after decrypting. Covered: the
// server's push, the worker's `push` handler and the shown notification, its click handler taking the
// open window to the page. Not covered: the browser's own decryption, and a real user's click (the
// click is dispatched in the worker with the shown notification; focus() needs a real one).
import { expect, test } from '../support/fixtures'
import { deviceKeys, startPushEndpoint, type PushEndpoint } from '../support/push-endpoint'
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

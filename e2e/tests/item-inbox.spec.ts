import type { APIRequestContext } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import { expectAccessible, screenshotScreen, useGerman } from './auth-support'
import { type Session, createCircle, createSignedInUser, joinCircle, signInAs } from './circles-support'
import { createItem, liveConnection, requestHandover, secondBrowser } from './handovers-support'

// Issue 23, against the real server: 'Waiting for you' on the dashboard answers a request in place and
// updates live; the item page answers a request where it announces it; each page says the true reason
// for what it does not offer; ownership is explained; the feed says what became of a request.

const cancel = async (request: APIRequestContext, who: Session, id: string) => {
  const response = await request.delete(`/api/handovers/${id}`, {
    headers: { Authorization: `Bearer ${who.token}` },
  })
  expect(response.status(), await response.text()).toBe(200)
}

test("Ben answers from 'Waiting for you'; the request arrives live and the feed follows it", async ({
  page,
  request,
  browser,
  baseURL,
  axe,
}) => {
  test.setTimeout(120_000)
  const ida = await createSignedInUser(request, 'inbox-ida', 'Ida Owner')
  const ben = await createSignedInUser(request, 'inbox-ben', 'Ben Neighbour')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)
  const drill = await createItem(request, ida, circleId, { name: 'Cordless drill' })
  const ladder = await createItem(request, ida, circleId, { name: 'Ladder' })

  // Ben's dashboard: nothing waits yet.
  await signInAs(page, ben)
  const connected = liveConnection(page)
  await page.goto('/dashboard')
  const inbox = page.getByRole('heading', { level: 2, name: 'Waiting for you' }).locator('..')
  await expect(inbox.getByText('Nothing is waiting for your answer.')).toBeVisible()
  await connected

  // Ida asks, elsewhere: the request appears without a reload, with the secret meant for Ben.
  await requestHandover(request, ida, {
    itemId: drill,
    receiverId: ben.user.id,
    requesterComment: 'Batteries are charged',
    secretMessage: 'Garage code 4711',
  })
  const list = page.getByRole('list', { name: 'Waiting for you' })
  const entry = list.getByRole('listitem').filter({ hasText: 'Cordless drill' })
  await expect(entry.getByText('Garage code 4711')).toBeVisible()
  await expect(entry.getByText('Batteries are charged')).toBeVisible()
  await expect(entry.getByText(/^Partial ownership:/)).toBeVisible()
  const ladderRequest = await requestHandover(request, ida, { itemId: ladder, receiverId: ben.user.id })
  await expect(list.getByRole('listitem')).toHaveCount(2)
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'inbox-dashboard-en-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'inbox-dashboard-en-390')
  await page.setViewportSize({ width: 1280, height: 900 })

  // Ida withdraws the ladder: it leaves the inbox live, and the feed says it was cancelled.
  await cancel(request, ida, ladderRequest)
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(
    page.getByRole('link', { name: /Ida Owner wanted to hand you Ladder: the request was cancelled/ }),
  ).toBeVisible()

  // Ben accepts the drill in place.
  await entry.getByLabel('Your reply').fill('Thanks!')
  await entry.getByRole('button', { name: 'Accept' }).click()
  await expect(page.getByText('Handover confirmed successfully')).toBeVisible()
  await expect(inbox.getByText('Nothing is waiting for your answer.')).toBeVisible()
  await expect(
    page.getByRole('link', { name: /Ida Owner wanted to hand you Cordless drill: you accepted/ }),
  ).toBeVisible()
  await expect(page.getByRole('link', { name: /Ida Owner wants to hand you/ })).toHaveCount(0)
  await screenshotScreen(page, 'inbox-dashboard-empty-en-1280')

  // Ida, the former holder, reads the true reasons on the item page.
  const second = await secondBrowser(browser, baseURL!)
  await signInAs(second.page, ida)
  await second.page.goto(`/items/${drill}`)
  const actions = second.page.getByRole('region', { name: 'Actions' })
  await expect(actions.getByText('Only its holder, Ben Neighbour, can hand this item over.')).toBeVisible()
  await expect(
    actions.getByText(
      'Only its holder, Ben Neighbour, can delete this item, and only with complete ownership.',
    ),
  ).toBeVisible()
  await expect(second.page.getByText('Cannot delete this item')).toHaveCount(0)
  await expect(second.page.getByRole('button', { name: 'Hand over' })).toBeDisabled()
  await second.context.close()

  // In German, with a new request waiting.
  await requestHandover(request, ida, {
    itemId: ladder,
    receiverId: ben.user.id,
    secretMessage: 'Im Schuppen',
  })
  await useGerman(page)
  await page.goto('/dashboard')
  const liste = page.getByRole('list', { name: 'Wartet auf dich' })
  await expect(liste.getByText('Im Schuppen')).toBeVisible()
  await expect(liste.getByRole('button', { name: 'Annehmen' })).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'inbox-dashboard-de-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'inbox-dashboard-de-390')
})

test('the item page answers in place; an answer to a request cancelled meanwhile says so (EN, DE)', async ({
  page,
  request,
  axe,
}) => {
  test.setTimeout(120_000)
  const ida = await createSignedInUser(request, 'itempage-ida', 'Ida Owner')
  const ben = await createSignedInUser(request, 'itempage-ben', 'Ben Neighbour')
  const circleId = await createCircle(request, ida, { name: 'Garden Co-op' })
  await joinCircle(request, circleId, ida, ben)
  const saw = await createItem(request, ida, circleId, { name: 'Hand saw' })
  const first = await requestHandover(request, ida, {
    itemId: saw,
    receiverId: ben.user.id,
    secretMessage: 'Blade guard in the drawer',
  })

  // Ben's network blocks the live connection (a strict proxy): his open page learns of Ida's cancel
  // only from the server's answer.
  await page.route('**/socket.io/**', (route) => route.abort('connectionrefused'))
  await signInAs(page, ben)
  await page.goto(`/items/${saw}`)
  const received = page.getByRole('region', { name: 'Item Handover Received' })
  await expect(
    received.getByText('Ida Owner wants to hand this item to you. Accept or reject it here.'),
  ).toBeVisible()
  await expect(received.getByText('Blade guard in the drawer')).toBeVisible()
  // Ownership explained where it shows; Ben does not hold it, and the page says so.
  await expect(
    page.getByText('The holder owns it: may use it, delete it and hand it on for good.'),
  ).toBeVisible()
  await expect(
    page.getByText('Only its holder, Ida Owner, can delete this item, and only with complete ownership.'),
  ).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'item-page-received-en-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'item-page-received-en-390')
  await page.setViewportSize({ width: 1280, height: 900 })

  await cancel(request, ida, first)
  await received.getByRole('button', { name: 'Accept' }).click()
  await expect(page.getByText('This handover request has been cancelled.')).toBeVisible()
  // The refused answer refreshed the page: the request is gone from it, and the item stayed with Ida.
  await expect(received).toHaveCount(0)
  await expect(page.getByText('Held by').locator('..').getByText('Ida Owner')).toBeVisible()

  // A new request, answered in German: Ben rejects it in place.
  await requestHandover(request, ida, {
    itemId: saw,
    receiverId: ben.user.id,
    secretMessage: 'Klinge scharf',
  })
  await useGerman(page)
  await page.goto(`/items/${saw}`)
  const erhalten = page.getByRole('region', { name: 'Übergabe erhalten' })
  await expect(erhalten.getByText('Klinge scharf')).toBeVisible()
  await expect(
    page.getByText(
      'Er gehört der Person, bei der er ist: Sie darf ihn nutzen, löschen und endgültig weitergeben.',
    ),
  ).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'item-page-received-de-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'item-page-received-de-390')
  await erhalten.getByLabel('Deine Antwort').fill('Nicht diese Woche')
  await erhalten.getByRole('button', { name: 'Ablehnen' }).click()
  await expect(page.getByText('Übergabe erfolgreich abgelehnt')).toBeVisible()
  await expect(erhalten).toHaveCount(0)

  // The history keeps the cancelled request, marked.
  await page.goto(`/items/${saw}/handover`)
  const history = page.getByRole('region', { name: 'Übergabeverlauf' }).getByRole('listitem')
  await expect(history).toHaveCount(2)
  await expect(history.nth(1).getByText('Zurückgezogen', { exact: true })).toBeVisible()
  await screenshotScreen(page, 'handover-history-cancelled-de-390')
})

import type { APIRequestContext } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import { extractLink, readAllEmails, waitForEmail } from '../support/mail'
import { createCircle, createSignedInUser, joinCircle, signInAs } from './circles-support'
import { createItem, requestHandover, secondBrowser } from './handovers-support'

// Email notices through the real outbox and SMTP sink: they arrive, they respect the preferences set on
// /profile, and an unsubscribe link works without signing in.

const inboxOf = async (address: string) => (await readAllEmails()).filter((m) => m.to.includes(address))

/** The receiver rejects the handover through the API. */
async function answer(request: APIRequestContext, receiver: { token: string }, handoverId: string) {
  const answered = await request.put(`/api/handovers/${handoverId}/status`, {
    data: { status: 'REJECTED' },
    headers: { Authorization: `Bearer ${receiver.token}` },
  })
  expect(answered.status()).toBe(200)
}

test('a request arrives by email; its unsubscribe link stops the next one; the profile shows it', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000)
  const ida = await createSignedInUser(request, 'notice-ida', 'Ida Owner')
  const ben = await createSignedInUser(request, 'notice-ben', 'Ben Neighbour')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)
  const drill = await createItem(request, ida, circleId, { name: 'Drill' })
  await requestHandover(request, ida, { itemId: drill, receiverId: ben.user.id })

  const mail = await waitForEmail(ben.user.email, { subject: /Ida Owner wants to hand you Drill/ })
  expect(mail.raw).toMatch(/^List-Unsubscribe:\s*<http:\/\/localhost:\d+\/api\/users\/unsubscribe\?token=/m)
  expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m)
  expect(extractLink(mail, `/items/${drill}/handover`)).toBeTruthy()

  // Ben opens the unsubscribe link in a browser where nobody is signed in.
  const stranger = await secondBrowser(browser, baseURL!)
  await stranger.page.goto(extractLink(mail, '/unsubscribe?token='))
  await expect(stranger.page.getByRole('heading', { name: 'Stop these emails?' })).toBeVisible()
  await stranger.page.getByRole('button', { name: 'Unsubscribe' }).click()
  await expect(stranger.page.getByText('You will no longer receive these emails.')).toBeVisible()
  await stranger.context.close()

  const tent = await createItem(request, ida, circleId, { name: 'Tent' })
  await requestHandover(request, ida, { itemId: tent, receiverId: ben.user.id })
  // A later email Ben still gets is the sentinel: the outbox delivers the oldest email first, so an
  // email about the Tent (queued before the API answered) would have arrived before it.
  const saw = await createItem(request, ben, circleId, { name: 'Saw' })
  await answer(request, ida, await requestHandover(request, ben, { itemId: saw, receiverId: ida.user.id }))
  await waitForEmail(ben.user.email, { subject: /Ida Owner rejected Saw/ })
  expect((await inboxOf(ben.user.email)).map((m) => m.subject)).not.toContain(
    'Ida Owner wants to hand you Tent',
  )

  await signInAs(page, ben)
  await page.goto('/profile')
  await expect(page.getByLabel('When someone wants to hand me something')).not.toBeChecked()
  await expect(page.getByLabel('When my handover request is accepted or rejected')).toBeChecked()
})

test('a preference switched off on /profile holds: no answer email for the sender', async ({
  page,
  request,
}) => {
  const ida = await createSignedInUser(request, 'notice-pref-ida', 'Ida Owner')
  const ben = await createSignedInUser(request, 'notice-pref-ben', 'Ben Neighbour')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)

  await signInAs(page, ida)
  await page.goto('/profile')
  await page.getByLabel('When my handover request is accepted or rejected').uncheck()
  await page.getByRole('button', { name: 'Save preferences' }).click()
  await expect(page.getByText('Your email preferences have been saved.')).toBeVisible()

  const ladder = await createItem(request, ida, circleId, { name: 'Ladder' })
  const handoverId = await requestHandover(request, ida, { itemId: ladder, receiverId: ben.user.id })
  await answer(request, ben, handoverId)
  await waitForEmail(ben.user.email, { subject: /wants to hand you Ladder/ })
  // The sentinel: a later email Ida still gets (a request to her), queued after the rejection was
  // answered; the outbox delivers the oldest first, so the rejection's email would have come before it.
  const saw = await createItem(request, ben, circleId, { name: 'Saw' })
  await requestHandover(request, ben, { itemId: saw, receiverId: ida.user.id })
  await waitForEmail(ida.user.email, { subject: /Ben Neighbour wants to hand you Saw/ })
  expect((await inboxOf(ida.user.email)).map((m) => m.subject)).not.toContain('Ben Neighbour rejected Ladder')
})

import { expectShownFor } from '../support/clock'
import { expect, test } from '../support/fixtures'
import { expectAccessible, screenshotScreen, useGerman } from './auth-support'
import { createCircle, createSignedInUser, joinCircle, signInAs } from './circles-support'
import { createItem, rememberedCheckpointSize, requestHandover, secondBrowser } from './handovers-support'

// Handovers and the ledger against the real server, two people at two browsers: Ida hands her drill to
// Ben, Ben accepts, the block appears and the chain verifies; rejected and cancelled requests; errors.

test('Ida hands an item to Ben, Ben accepts, the block appears and the chain verifies', async ({
  page,
  request,
  browser,
  baseURL,
  axe,
}) => {
  test.setTimeout(120_000)
  const ida = await createSignedInUser(request, 'handover-ida', 'Ida Owner')
  const ben = await createSignedInUser(request, 'handover-ben', 'Ben Neighbour')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)
  const itemId = await createItem(request, ida, circleId, { name: 'Cordless drill' })

  // Ida asks.
  await signInAs(page, ida)
  await page.goto(`/items/${itemId}`)
  await page.getByRole('link', { name: 'Hand over' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Hand over Cordless drill' })).toBeVisible()
  const send = page.getByRole('button', { name: 'Send handover request' })
  await expect(send).toBeDisabled()
  await page.getByLabel('Receiver', { exact: true }).selectOption({ label: 'Ben Neighbour' })
  await page.getByLabel('Your message', { exact: true }).fill('Batteries are charged')
  await page.getByLabel('Secret message', { exact: true }).fill('Garage code 4711')
  await page.getByLabel('Hand over complete ownership').check()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'handover-form-en-1280')
  await send.click()
  await expect(page.getByText('Handover request sent')).toBeVisible()
  await expect(page.getByText('Item Handover Sent')).toBeVisible()
  await expect(page.getByText('Garage code 4711')).toHaveCount(0)
  await expect(page.getByText('With a secret message only Ben Neighbour can read.')).toBeVisible()

  // Ben, at his own browser, sees it on the item and answers.
  const second = await secondBrowser(browser, baseURL!)
  const benPage = second.page
  await signInAs(benPage, ben)
  await benPage.goto(`/items/${itemId}`)
  await expect(benPage.getByText('Item Handover Received')).toBeVisible()
  // The item page answers in place (item-inbox.spec.ts); here Ben answers from the handover page.
  await benPage.goto(`/items/${itemId}/handover`)
  await expect(benPage.getByText('Garage code 4711')).toBeVisible()
  await benPage.getByLabel('Your reply').fill('Thanks, back on Sunday')
  await expectAccessible(benPage, axe)
  await screenshotScreen(benPage, 'handover-received-en-1280')
  await benPage.getByRole('button', { name: 'Accept' }).click()
  await expect(benPage.getByText('Handover confirmed successfully')).toBeVisible()
  await expect(benPage.getByRole('listitem').getByText('Accepted', { exact: true })).toBeVisible()
  // The confirmation's receipt checked out: Ben's device remembers the signed tree holding the block.
  await expect.poll(() => rememberedCheckpointSize(benPage, circleId)).toBe(1)

  // The block, told as a story, checked on this device and by the server.
  await benPage.getByRole('link', { name: 'Ledger block' }).click()
  await expect(benPage.getByRole('heading', { level: 1, name: 'Block #0' })).toBeVisible()
  await expect(benPage.getByText('Ida Owner handed Cordless drill to Ben Neighbour, accepted')).toBeVisible()
  await expect(benPage.getByText('Hash checks out on this device')).toBeVisible()
  await expectAccessible(benPage, axe)
  await benPage.goto(`/blockchain/item/${itemId}`)
  await expect(benPage.getByText('Ida Owner handed Cordless drill to Ben Neighbour, accepted')).toBeVisible()
  await benPage.getByRole('button', { name: 'Verify chain' }).click()
  await expect(benPage.getByText('Valid', { exact: true })).toBeVisible()
  await expect(benPage.getByText('1 block verified, 0 failing.')).toBeVisible()
  await expectAccessible(benPage, axe)
  await screenshotScreen(benPage, 'ledger-item-en-1280')
  await benPage.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(benPage, 'ledger-item-en-390')
  await second.context.close()

  // Ida's item now: handed over, locked, and she cannot hand it on.
  await page.goto(`/items/${itemId}`)
  await expect(page.getByRole('button', { name: 'Edit Locked' })).toBeDisabled()
  await expect(page.getByText(/^Handed over · /)).toBeVisible()
  await expect(page.getByRole('link', { name: 'Hand over' })).toHaveCount(0)
  await page.goto(`/items/${itemId}/handover`)
  // The true reason: Ben holds it now (docs/decisions/0029).
  await expect(page.getByText('Only its holder, Ben Neighbour, can hand this item over.')).toBeVisible()
  await screenshotScreen(page, 'handover-transferred-en-1280')

  // In German, on a phone.
  await useGerman(page)
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`/items/${itemId}`)
  await expect(page.getByRole('button', { name: 'Bearbeitung gesperrt' })).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'item-handed-over-de-390')
  await page.goto(`/blockchain/circle/${circleId}`)
  await expect(
    page.getByText('Ida Owner hat Cordless drill an Ben Neighbour übergeben, angenommen'),
  ).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'ledger-circle-de-390')
  await page.setViewportSize({ width: 1280, height: 900 })
  await screenshotScreen(page, 'ledger-circle-de-1280')
  await page.goto(`/items/${itemId}/handover`)
  await expect(page.getByRole('heading', { level: 2, name: 'Übergabeverlauf' })).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'handover-history-de-1280')
})

test('a rejected request moves nothing; a cancelled one stays marked; a stale form shows the server error', async ({
  page,
  request,
  browser,
  baseURL,
  axe,
}) => {
  test.setTimeout(120_000)
  await page.clock.install()
  const ida = await createSignedInUser(request, 'reject-ida', 'Ida Owner')
  const ben = await createSignedInUser(request, 'reject-ben', 'Ben Neighbour')
  const circleId = await createCircle(request, ida, { name: 'Garden Co-op' })
  await joinCircle(request, circleId, ida, ben)
  const itemId = await createItem(request, ida, circleId, { name: 'Ladder' })
  await requestHandover(request, ida, { itemId, receiverId: ben.user.id, requesterComment: 'For the roof' })

  // Ben rejects.
  const second = await secondBrowser(browser, baseURL!)
  await signInAs(second.page, ben)
  await second.page.goto(`/items/${itemId}/handover`)
  await second.page.getByLabel('Your reply').fill('Not this week')
  await second.page.getByRole('button', { name: 'Reject' }).click()
  await expect(second.page.getByText('Handover rejected successfully')).toBeVisible()
  await expect(second.page.getByRole('listitem').getByText('Rejected', { exact: true })).toBeVisible()
  await second.context.close()

  // Ida still holds it and asks again, then withdraws. Her network blocks the live connection (a strict
  // proxy), so a change made elsewhere does not reach her open form: the server's answer must.
  await page.route('**/socket.io/**', (route) => route.abort('connectionrefused'))
  await signInAs(page, ida)
  await page.goto(`/items/${itemId}/handover`)
  await expect(page.getByText('Not this week')).toBeVisible()
  await page.getByLabel('Receiver', { exact: true }).selectOption({ label: 'Ben Neighbour' })
  await page.getByRole('button', { name: 'Send handover request' }).click()
  await expect(page.getByText('Item Handover Sent')).toBeVisible()
  await page.getByRole('button', { name: 'Cancel request' }).click()
  const dialog = page.getByRole('dialog', { name: 'Cancel this handover request?' })
  await expect(dialog).toBeVisible()
  await expectAccessible(page, axe)
  // The success banner clears itself after 5 s (spec 001), on the page's clock.
  await expectShownFor(page, page.getByText('Handover request cancelled'), 5_000, () =>
    dialog.getByRole('button', { name: 'Cancel request' }).click(),
  )
  // It stays in the history, marked as cancelled (docs/decisions/0029).
  const history = page.getByRole('region', { name: 'Handover history' }).getByRole('listitem')
  await expect(history).toHaveCount(2)
  await expect(history.first().getByText('Cancelled', { exact: true })).toBeVisible()

  // Someone else asked meanwhile (another tab): the form's request gets the server's answer.
  await page.getByLabel('Receiver', { exact: true }).selectOption({ label: 'Ben Neighbour' })
  await requestHandover(request, ida, { itemId, receiverId: ben.user.id })
  await page.getByRole('button', { name: 'Send handover request' }).click()
  await expect(page.getByText('This item already has a pending handover.')).toBeVisible()
  await screenshotScreen(page, 'handover-error-en-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'handover-error-en-390')
})

test('the ledger of someone without handovers is empty, and says so', async ({ page, request, axe }) => {
  const solo = await createSignedInUser(request, 'ledger-empty', 'Sol Empty')
  await signInAs(page, solo)
  await page.goto('/blockchain')
  await expect(page.getByRole('heading', { name: 'No blockchain records found' })).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'ledger-empty-en-1280')
})

import type { Page } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import { expectAccessible, screenshotScreen, useGerman } from './auth-support'
import { createCircle, createSignedInUser, joinCircle, signInAs, type Session } from './circles-support'
import { createItem, secondBrowser } from './handovers-support'

// Condition evidence (issue 28) against the real server, two people at two browsers: Ida asks to hand
// her drill to Ben with two photos from the camera and a note; Ben sees them, cannot have 'as described'
// and photos of his own together, and accepts with one photo and a note; both read the item's condition
// timeline in English and German, on a phone and on a desktop. A file that is no picture is refused with
// the spec's message.

const auth = (session: Session) => ({ Authorization: `Bearer ${session.token}` })
const INVALID_TYPE = 'Invalid file type. Please upload a JPEG, PNG, or WebP image.'

/** One photo from Chromium's fake camera, through the camera dialog, until it is uploaded. */
async function takePhoto(page: Page, scope = page.getByRole('main'), uploaded: number) {
  await scope.getByRole('button', { name: 'Take a photo' }).click()
  const dialog = page.getByRole('dialog', { name: 'Take Photo' })
  const capture = dialog.getByRole('button', { name: 'Capture' })
  await expect(capture).toBeVisible({ timeout: 15_000 })
  await expect
    .poll(() => dialog.locator('video').evaluate((video: HTMLVideoElement) => video.videoWidth))
    .toBeGreaterThan(0)
  await capture.click()
  await page.getByRole('dialog', { name: 'Review Photo' }).getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByRole('dialog')).toBeHidden()
  await expect(scope.getByText('Uploaded', { exact: true })).toHaveCount(uploaded, { timeout: 20_000 })
}

/** A real JPEG drawn in the page (the server re-encodes what it keeps, so it must be a picture). */
async function jpegBytes(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas')
    canvas.width = 64
    canvas.height = 48
    const context = canvas.getContext('2d')!
    context.fillStyle = '#3a7'
    context.fillRect(0, 0, 64, 48)
    return canvas.toDataURL('image/jpeg', 0.9).split(',')[1]!
  })
  return Buffer.from(base64, 'base64')
}

test('request with two camera photos and a note, accept with a photo and a note, both on the condition timeline and the block page', async ({
  page,
  request,
  browser,
  baseURL,
  axe,
}) => {
  test.setTimeout(240_000)
  const ida = await createSignedInUser(request, 'condition-ida', 'Ida Owner')
  const ben = await createSignedInUser(request, 'condition-ben', 'Ben Neighbour')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)
  const itemId = await createItem(request, ida, circleId, { name: 'Cordless drill' })

  // Before any handover: the item page says where condition photos will appear.
  await signInAs(page, ida)
  await page.goto(`/items/${itemId}`)
  const idaTimeline = page.getByRole('region', { name: 'Condition' })
  await expect(idaTimeline.getByText(/^No photos or notes yet\./)).toBeVisible()

  // Ida asks, with two photos from the camera and a note.
  await page.goto(`/items/${itemId}/handover`)
  await page.getByLabel('Receiver', { exact: true }).selectOption({ label: 'Ben Neighbour' })
  const form = page.getByRole('group', { name: 'Condition' })
  await takePhoto(page, form, 1)
  await takePhoto(page, form, 2)
  await expect(form.getByText('2 of 4 photos')).toBeVisible()

  // A file that is no picture, whatever its name says, is refused before it goes anywhere.
  await form.getByLabel('Choose photos').setInputFiles({
    name: 'receipt.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from('this is a shopping list, not a photo'),
  })
  await expect(form.getByRole('alert')).toHaveText(`receipt.jpg: ${INVALID_TYPE}`)
  await expect(form.getByText('2 of 4 photos')).toBeVisible()

  await form.getByLabel('Condition note').fill('Scratch on the left side, charger included')
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'condition-request-en-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'condition-request-en-390')
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.getByRole('button', { name: 'Send handover request' }).click()
  await expect(page.getByText('Handover request sent')).toBeVisible()
  // Ida's pending request shows what she attached.
  const idaCard = page.getByRole('listitem').filter({ hasText: 'You recorded' })
  await expect(idaCard.getByText('Scratch on the left side, charger included')).toBeVisible()
  await expect(idaCard.getByRole('button', { name: /^Photo \d of 2 by Ida Owner, open large$/ })).toHaveCount(
    2,
  )
  const handoverId = (
    (await (await request.get(`/api/handovers/item/${itemId}`, { headers: auth(ida) })).json()) as {
      handovers: { id: string }[]
    }
  ).handovers[0]!.id

  // Ben, at his own browser, sees Ida's photos and note before answering.
  const second = await secondBrowser(browser, baseURL!)
  const benPage = second.page
  await signInAs(benPage, ben)
  await benPage.goto(`/items/${itemId}`)
  const answer = benPage.getByRole('region', { name: 'Item Handover Received' })
  await expect(answer.getByText('Scratch on the left side, charger included')).toBeVisible()
  await answer.getByRole('button', { name: 'Photo 1 of 2 by Ida Owner, open large' }).click()
  const viewer = benPage.getByRole('dialog', { name: 'Photo 1 of 2 by Ida Owner' })
  await expect(viewer.getByRole('img', { name: 'Photo 1 of 2 by Ida Owner' })).toHaveAttribute(
    'src',
    /^blob:/,
  )
  await expectAccessible(benPage, axe)
  await viewer.getByRole('button', { name: 'Close photo' }).click()
  await expect(viewer).toBeHidden()

  // 'As described' and photos of his own do not go together: ticking it sets his photo aside...
  const own = answer.getByRole('group', { name: 'Your photos and note' })
  await takePhoto(benPage, own, 1)
  await answer.getByLabel('Accept as described').check()
  await expect(own.getByRole('button', { name: 'Take a photo' })).toBeDisabled()
  await expect(own.getByLabel('Condition note')).toBeDisabled()
  await expect(own.getByText("Not sent while 'Accept as described' is ticked.")).toBeVisible()
  // ...and the server refuses both together with the true reason.
  const photo = await request.post('/api/handovers/photos', {
    headers: auth(ben),
    multipart: { image: { name: 'dent.jpg', mimeType: 'image/jpeg', buffer: await jpegBytes(benPage) } },
  })
  expect(photo.status(), await photo.text()).toBe(201)
  const { id: photoId } = ((await photo.json()) as { photo: { id: string } }).photo
  const both = await request.put(`/api/handovers/${handoverId}/status`, {
    headers: auth(ben),
    data: { status: 'CONFIRMED', condition: { photoIds: [photoId], note: null, asDescribed: true } },
  })
  expect(both.status()).toBe(400)
  expect(((await both.json()) as { message: string }).message).toBe(
    'Accept the item as described, or add your own photos and note, not both.',
  )

  // Ben accepts with his own photo and a note.
  await answer.getByLabel('Accept as described').uncheck()
  await own.getByLabel('Condition note').fill('Received with a dent on the lid')
  await expectAccessible(benPage, axe)
  await screenshotScreen(benPage, 'condition-answer-en-1280')
  await benPage.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(benPage, 'condition-answer-en-390')
  await benPage.setViewportSize({ width: 1280, height: 900 })
  await answer.getByRole('button', { name: 'Accept' }).click()
  await expect(benPage.getByText('Handover confirmed successfully')).toBeVisible()

  // Ben's item page: the condition timeline with both sides and the block that records them.
  const benTimeline = benPage.getByRole('region', { name: 'Condition' })
  const entry = benTimeline.getByRole('listitem').filter({ hasText: 'Received with a dent on the lid' })
  await expect(entry.getByText('Scratch on the left side, charger included')).toBeVisible()
  await expect(entry.getByRole('button', { name: /by Ida Owner, open large$/ })).toHaveCount(2)
  await expect(entry.getByRole('button', { name: /by Ben Neighbour, open large$/ })).toHaveCount(1)
  const blockLink = entry.getByRole('link', { name: /^Recorded in block #\d+$/ })
  await expect(blockLink).toHaveAttribute('href', /^\/blockchain\/[0-9a-f-]{36}$/)
  await expect(entry.locator('img')).toHaveCount(3)
  await expectAccessible(benPage, axe)
  await benTimeline.scrollIntoViewIfNeeded()
  await screenshotScreen(benPage, 'condition-timeline-en-1280')
  await benPage.setViewportSize({ width: 390, height: 844 })
  await benTimeline.scrollIntoViewIfNeeded()
  await screenshotScreen(benPage, 'condition-timeline-en-390')
  await second.context.close()

  // Ida reads the same timeline in German, on a phone and on a desktop.
  await useGerman(page)
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`/items/${itemId}`)
  const deTimeline = page.getByRole('region', { name: 'Zustand' })
  const deEntry = deTimeline.getByRole('listitem').filter({ hasText: 'Received with a dent on the lid' })
  await expect(deEntry.getByText('Übergabe', { exact: true })).toBeVisible()
  await expect(deEntry.getByText('Ida Owner hat festgehalten')).toBeVisible()
  await expect(deEntry.getByText('Ben Neighbour hat beim Empfang festgehalten')).toBeVisible()
  await expect(deEntry.getByRole('link', { name: /^Festgehalten in Block #\d+$/ })).toBeVisible()
  await expect(deEntry.locator('img')).toHaveCount(3)
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'condition-timeline-de-390')
  await page.setViewportSize({ width: 1280, height: 900 })
  await screenshotScreen(page, 'condition-timeline-de-1280')

  // The block that records them: each of the three photos checked on Ida's device against its digest.
  await deEntry.getByRole('link', { name: /^Festgehalten in Block #\d+$/ }).click()
  await expect(page).toHaveURL(/\/blockchain\/[0-9a-f-]{36}$/)
  const condition = page.getByRole('region', { name: 'Zustand' })
  await expect(condition.getByText(/^Festgehalten in Block #\d+$/)).toHaveCount(3)
  await expect(condition.getByText('Received with a dent on the lid')).toBeVisible()
  await expectAccessible(page, axe)
})

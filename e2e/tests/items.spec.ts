import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import sharp from 'sharp'
import { expect, test } from '../support/fixtures'
import { expectAccessible, screenshotScreen, useGerman } from './auth-support'
import { createCircle, createSignedInUser, signInAs } from './circles-support'

// The items screens against the real server: a circle's items page, adding items with and without a
// picture, the upload's progress bar with cancel and retry, the picture served privately.

/** A real JPEG on disk, of about `megabytes` (noise does not compress). */
async function photoFile(name: string, width: number, height: number) {
  const dir = await mkdtemp(join(tmpdir(), 'circles-e2e-photo-'))
  const noise = Buffer.alloc(width * height * 3)
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251
  const bytes = await sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer()
  const path = join(dir, name)
  await writeFile(path, bytes)
  return path
}

/** Upload at a slow phone's pace, so the progress bar can be seen and cancelled. */
async function slowUploads(page: Page, bytesPerSecond: number) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  })
  return () =>
    cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    })
}

test('a member adds items to a circle, with a picture that uploads with progress, cancel and retry', async ({
  page,
  request,
  axe,
}) => {
  test.setTimeout(120_000)
  const admin = await createSignedInUser(request, 'items-admin', 'Ida Items')
  const circleId = await createCircle(request, admin, { name: 'Workshop Nord' })
  await signInAs(page, admin)
  await page.goto(`/circle/${circleId}/items/`)

  await expect(page.getByRole('heading', { level: 1, name: 'Items of Workshop Nord' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'No items yet' })).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'items-circle-empty-en-1280')

  // Without a picture.
  await page.getByRole('button', { name: 'Add First Item' }).click()
  await page.getByRole('button', { name: 'Save item' }).click()
  await expect(page.getByText('Item name is required')).toBeVisible()
  await page.getByLabel('Name').fill('Ladder')
  await page.getByRole('button', { name: 'Save item' }).click()
  const ladder = page.getByRole('listitem').filter({ hasText: 'Ladder' })
  await expect(ladder).toBeVisible()
  await expect(ladder.getByText('No description provided')).toBeVisible()

  // With a picture, slowly: the bar moves, cancel stops it, retry finishes it.
  const photo = await photoFile('drill.jpg', 1400, 1000)
  await page.getByRole('button', { name: 'Add item' }).click()
  await page.getByLabel('Name').fill('Cordless drill')
  await page.getByLabel('Description').fill('Two batteries, charger in the box')
  await page.getByLabel('Picture', { exact: true }).setInputFiles(photo)
  const fast = await slowUploads(page, 150 * 1024)
  await page.getByRole('button', { name: 'Save item' }).click()
  const bar = page.getByRole('progressbar')
  await expect(bar).toBeVisible()
  await expect
    .poll(async () => Number(await bar.getAttribute('value')), { timeout: 15_000 })
    .toBeGreaterThan(0)
  await screenshotScreen(page, 'items-upload-progress-en-1280')
  await page.getByRole('button', { name: 'Cancel upload' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Upload was cancelled' })).toBeVisible()
  await fast()
  await page.getByRole('button', { name: 'Retry' }).click()
  const drill = page.getByRole('listitem').filter({ hasText: 'Cordless drill' })
  await expect(drill).toBeVisible()
  const picture = drill.getByRole('img', { name: 'Picture of Cordless drill' })
  await expect(picture).toHaveAttribute('src', /^blob:/)
  // The small rendition, not the full picture, fills the card.
  expect(
    await picture.evaluate((img: HTMLImageElement) => Math.max(img.naturalWidth, img.naturalHeight)),
  ).toBe(480)

  // The picture itself is private: without the session it is refused.
  const served = await request.get(
    (
      await (
        await request.get(`/api/items/circle/${circleId}`, {
          headers: { Authorization: `Bearer ${admin.token}` },
        })
      ).json()
    ).items[0].thumbnailUrl,
  )
  expect(served.status()).toBe(401)

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await expectAccessible(page, axe)
    await screenshotScreen(page, `items-circle-en-${width}`)
  }
  await useGerman(page)
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'Gegenstände von Workshop Nord' })).toBeVisible()
  await expect(page.getByRole('img', { name: 'Foto von Cordless drill' })).toHaveAttribute('src', /^blob:/)
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await expectAccessible(page, axe)
    await screenshotScreen(page, `items-circle-de-${width}`)
  }
})

test('a picture the server refuses says why, and the item stays', async ({ page, request }) => {
  const admin = await createSignedInUser(request, 'items-refused', 'Rita Refused')
  const circleId = await createCircle(request, admin, { name: 'Refusals' })
  await signInAs(page, admin)
  await page.goto(`/circle/${circleId}/items`)
  await page.getByRole('button', { name: 'Add First Item' }).click()
  await page.getByLabel('Name').fill('Mystery box')
  const dir = await mkdtemp(join(tmpdir(), 'circles-e2e-text-'))
  const fake = join(dir, 'photo.jpg')
  await writeFile(fake, 'this is text pretending to be a photo')
  await page.getByLabel('Picture', { exact: true }).setInputFiles(fake)
  await page.getByRole('button', { name: 'Save item' }).click()
  await expect(
    page.getByRole('alert').filter({
      hasText: 'Upload failed: Invalid file type. Please upload a JPEG, PNG, or WebP image.',
    }),
  ).toBeVisible()
  await page.getByRole('button', { name: 'Keep without picture' }).click()
  await expect(page.getByRole('listitem').filter({ hasText: 'Mystery box' })).toBeVisible()
})

import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import sharp from 'sharp'
import { expect, test } from '../support/fixtures'
import { expectAccessible, screenshotScreen, toast, useGerman } from './auth-support'
import { createCircle, createSignedInUser, joinCircle, signInAs } from './circles-support'
import { createItem, requestHandover } from './handovers-support'

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
  // Under the field, and as the banner of the first error (spec 001 §5).
  await expect(
    page.getByRole('form', { name: 'Add an item' }).getByText('Item name is required'),
  ).toBeVisible()
  await expect(toast(page, 'error', 'Item name is required')).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'items-form-error-en-1280')
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
  // A JPEG's first bytes, then text: past the check at the pick (issue 23), refused by the server.
  await writeFile(fake, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('not a photo')]))
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

test('an item’s page: details, edit with a new picture, delete after confirming; /items lists what I hold', async ({
  page,
  request,
  axe,
}) => {
  test.setTimeout(90_000)
  const owner = await createSignedInUser(request, 'items-owner', 'Olli Owner')
  const circleId = await createCircle(request, owner, { name: 'Garden Club' })
  await signInAs(page, owner)

  await page.goto('/items')
  await expect(page.getByRole('heading', { level: 1, name: 'My items' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'No items yet' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Go to my circles' })).toHaveAttribute('href', '/circles')
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'items-mine-empty-en-1280')

  const created = await request.post('/api/items', {
    data: { name: 'Hedge trimmer', description: 'Sharp. Gloves in the bag.', circleId },
    headers: { Authorization: `Bearer ${owner.token}` },
  })
  expect(created.status()).toBe(201)
  const itemId = ((await created.json()) as { item: { id: string } }).item.id

  await page.reload()
  await page.getByRole('link', { name: /Hedge trimmer/ }).click()
  await expect(page).toHaveURL(new RegExp(`/items/${itemId}$`))
  await expect(page.getByRole('heading', { level: 1, name: 'Hedge trimmer' })).toBeVisible()
  await expect(page.getByText('Sharp. Gloves in the bag.')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Items of Garden Club' })).toHaveAttribute(
    'href',
    `/circle/${circleId}/items`,
  )
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await expectAccessible(page, axe)
    await screenshotScreen(page, `items-detail-en-${width}`)
  }
  await page.setViewportSize({ width: 1280, height: 900 })

  // Edit: a new name and a picture.
  await page.getByRole('link', { name: 'Edit item' }).click()
  await expect(page).toHaveURL(
    new RegExp(`/circle/${circleId}/items/${itemId}/edit\\?from=%2Fitems%2F${itemId}$`),
  )
  await expect(page.getByLabel('Name')).toHaveValue('Hedge trimmer')
  await page.getByLabel('Name').fill('Electric hedge trimmer')
  await page.getByLabel('Picture', { exact: true }).setInputFiles(await photoFile('trimmer.jpg', 800, 600))
  await page.getByRole('button', { name: 'Save changes' }).click()
  // Shrinking and uploading the picture first: on a busy machine that takes a while. The edit started
  // on the item's page, so saving returns there (issue 23).
  await expect(page).toHaveURL(new RegExp(`/items/${itemId}$`), { timeout: 30_000 })
  await expect(page.getByRole('heading', { level: 1, name: 'Electric hedge trimmer' })).toBeVisible()
  await page.goto(`/circle/${circleId}/items`)
  // The card's link to the item's page (beside it, the card's own Edit and Delete).
  const card = page.getByRole('main').locator(`a[href="/items/${itemId}"]`)
  await expect(card.getByRole('img', { name: 'Picture of Electric hedge trimmer' })).toHaveAttribute(
    'src',
    /^blob:/,
  )

  // Delete, after the question.
  await card.click()
  await page.getByRole('button', { name: 'Delete item' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete this item?' })
  await expect(dialog.getByText('Are you sure you want to delete this item?')).toBeVisible()
  await expectAccessible(page, axe)
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toBeHidden()
  await page.getByRole('button', { name: 'Delete item' }).click()
  await dialog.getByRole('button', { name: 'Delete item' }).click()
  await expect(page).toHaveURL(new RegExp(`/circle/${circleId}/items$`))
  await expect(page.getByRole('heading', { name: 'No items yet' })).toBeVisible()
})

test('a removed member keeps a complete item, apart from the circle, with the notice and a delete button', async ({
  page,
  request,
  axe,
}) => {
  const admin = await createSignedInUser(request, 'items-rm-admin', 'Ada Admin')
  const member = await createSignedInUser(request, 'items-rm-member', 'Mia Member')
  const circleId = await createCircle(request, admin, { name: 'Student House' })
  await joinCircle(request, circleId, admin, member)
  const created = await request.post('/api/items', {
    data: { name: 'Rice cooker', circleId },
    headers: { Authorization: `Bearer ${member.token}` },
  })
  const itemId = ((await created.json()) as { item: { id: string } }).item.id
  const removed = await request.delete(`/api/circles/${circleId}/users/${member.user.id}`, {
    headers: { Authorization: `Bearer ${admin.token}` },
  })
  expect(removed.status()).toBe(200)

  await signInAs(page, member)
  await page.goto(`/items/${itemId}`)
  await expect(page.getByText('Removed from circle')).toBeVisible()
  await expect(page.getByText(/You are no longer a member of Student House/)).toBeVisible()
  await expect(page.getByRole('link', { name: 'Edit item' })).toHaveCount(0)
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'items-removed-en-1280')
  await useGerman(page)
  await page.reload()
  await expect(page.getByText('Aus dem Kreis entfernt')).toBeVisible()
  await screenshotScreen(page, 'items-removed-de-1280')
  await page.getByRole('button', { name: 'Gegenstand löschen' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Gegenstand löschen' }).click()
  await expect(page).toHaveURL(/\/items$/)
  await expect(page.getByRole('heading', { name: 'Noch keine Gegenstände' })).toBeVisible()
})

test('a photo over 5 MB is shrunk in the browser (worker from our origin, CSP intact) and then accepted', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000)
  const cspErrors: string[] = []
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) cspErrors.push(msg.text())
  })
  const sent: number[] = []
  page.on('request', (req) => {
    if (req.url().endsWith('/image') && req.method() === 'POST') sent.push(req.postDataBuffer()?.length ?? 0)
  })
  const admin = await createSignedInUser(request, 'items-big', 'Bea Big')
  const circleId = await createCircle(request, admin, { name: 'Big Pictures' })
  await signInAs(page, admin)
  await page.goto(`/circle/${circleId}/items`)
  await page.getByRole('button', { name: 'Add First Item' }).click()
  await page.getByLabel('Name').fill('Camping tent')
  const photo = await photoFile('tent.jpg', 4000, 3000)
  const { size } = await import('node:fs/promises').then((fs) => fs.stat(photo))
  expect(size).toBeGreaterThan(5 * 1024 * 1024)
  await page.getByLabel('Picture', { exact: true }).setInputFiles(photo)
  await page.getByRole('button', { name: 'Save item' }).click()
  const card = page.getByRole('link', { name: /Camping tent/ })
  await expect(card.getByRole('img', { name: 'Picture of Camping tent' })).toHaveAttribute('src', /^blob:/, {
    timeout: 60_000,
  })
  expect(sent).toHaveLength(1)
  expect(sent[0]).toBeLessThan(5 * 1024 * 1024)
  expect(cspErrors).toEqual([])
})

test('the camera: take a photo with Chromium’s fake camera, review, retake, confirm, and it becomes the picture', async ({
  page,
  request,
  axe,
}) => {
  test.setTimeout(90_000)
  const admin = await createSignedInUser(request, 'items-camera', 'Cam Era')
  const circleId = await createCircle(request, admin, { name: 'Photo Club' })
  await signInAs(page, admin)
  await page.goto(`/circle/${circleId}/items`)
  await page.getByRole('button', { name: 'Add First Item' }).click()
  await page.getByLabel('Name').fill('Tripod')
  await page.getByRole('button', { name: 'Take photo' }).click()

  const dialog = page.getByRole('dialog', { name: 'Take Photo' })
  await expect(dialog).toBeVisible()
  const capture = dialog.getByRole('button', { name: 'Capture' })
  await expect(capture).toBeVisible({ timeout: 15_000 })
  await expect
    .poll(() => dialog.locator('video').evaluate((video: HTMLVideoElement) => video.videoWidth))
    .toBeGreaterThan(0)
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'items-camera-live-en-1280')
  await capture.click()
  const review = page.getByRole('dialog', { name: 'Review Photo' })
  await expect(review.getByRole('img', { name: 'The photo you took' })).toBeVisible()
  await review.getByRole('button', { name: 'Retake' }).click()
  await expect(
    page.getByRole('dialog', { name: 'Take Photo' }).getByRole('button', { name: 'Capture' }),
  ).toBeVisible()
  await page.getByRole('dialog', { name: 'Take Photo' }).getByRole('button', { name: 'Capture' }).click()
  await screenshotScreen(page, 'items-camera-review-en-1280')
  await page.getByRole('dialog', { name: 'Review Photo' }).getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByRole('dialog')).toBeHidden()
  await expect(page.getByText(/^Picture: photo_\d+\.jpg$/)).toBeVisible()
  await page.getByRole('button', { name: 'Save item' }).click()
  const card = page.getByRole('link', { name: /Tripod/ })
  await expect(card.getByRole('img', { name: 'Picture of Tripod' })).toHaveAttribute('src', /^blob:/)

  // Escape closes the dialog, and so does a click on the backdrop.
  await page.getByRole('button', { name: 'Add item' }).click()
  await page.getByRole('button', { name: 'Take photo' }).click()
  await expect(page.getByRole('dialog', { name: 'Take Photo' })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toBeHidden()
  await page.getByRole('button', { name: 'Take photo' }).click()
  await expect(page.getByRole('dialog', { name: 'Take Photo' })).toBeVisible()
  await page.mouse.click(5, 5)
  await expect(page.getByRole('dialog')).toBeHidden()
})

test('the camera refused or missing: the dialog says so, offers Try Again, and takes a file instead', async ({
  page,
  request,
}) => {
  const admin = await createSignedInUser(request, 'items-nocam', 'No Cam')
  const circleId = await createCircle(request, admin, { name: 'No Camera' })
  // The browser answers as it does when the user blocks the camera.
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () =>
      Promise.reject(new DOMException('Permission denied', 'NotAllowedError'))
  })
  await signInAs(page, admin)
  await page.goto(`/circle/${circleId}/items`)
  await page.getByRole('button', { name: 'Add First Item' }).click()
  await page.getByLabel('Name').fill('Sewing machine')
  await page.getByRole('button', { name: 'Take photo' }).click()
  const dialog = page.getByRole('dialog', { name: 'Take Photo' })
  await expect(dialog.getByRole('alert')).toContainText('Camera access was denied')
  await expect(dialog.getByRole('button', { name: 'Try Again' })).toBeVisible()
  await screenshotScreen(page, 'items-camera-denied-en-1280')
  await dialog
    .getByLabel('Choose a picture from this device')
    .setInputFiles(await photoFile('machine.jpg', 640, 480))
  await page.getByRole('dialog', { name: 'Review Photo' }).getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByText('Picture: machine.jpg')).toBeVisible()
  await page.getByRole('button', { name: 'Save item' }).click()
  await expect(page.getByRole('link', { name: /Sewing machine/ }).getByRole('img')).toHaveAttribute(
    'src',
    /^blob:/,
  )
})

test('with two cameras: the switch shows “Switching camera...” and mirrors the front camera; the dialog on a phone, in German', async ({
  browser,
  baseURL,
  request,
  axe,
}) => {
  test.setTimeout(90_000)
  // A browser of its own whose fake capture offers two cameras.
  const type = browser.browserType()
  const twoCameras = await type.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--use-fake-device-for-media-stream=device-count=2',
      '--use-fake-ui-for-media-stream',
    ],
  })
  try {
    const context = await twoCameras.newContext({
      baseURL,
      viewport: { width: 390, height: 844 },
      hasTouch: true,
    })
    await context.addCookies([
      {
        name: 'cc_cookie',
        value: encodeURIComponent(JSON.stringify({ categories: ['necessary'], revision: 0 })),
        url: baseURL!,
      },
    ])
    const page = await context.newPage()
    const admin = await createSignedInUser(request, 'items-two-cams', 'Zwei Kameras')
    const circleId = await createCircle(request, admin, { name: 'Fotokreis' })
    await useGerman(page)
    await signInAs(page, admin)
    await page.goto(`/circle/${circleId}/items`)
    await page.getByRole('button', { name: 'Ersten Gegenstand hinzufügen' }).click()
    await page.getByRole('button', { name: 'Foto aufnehmen' }).click()
    const dialog = page.getByRole('dialog', { name: 'Foto aufnehmen' })
    const video = dialog.locator('video')
    await expect(dialog.getByRole('button', { name: 'Auslösen' })).toBeVisible({ timeout: 15_000 })
    await expect(video).not.toHaveClass(/-scale-x-100/)
    // 'Switching' lasts as long as the next camera takes to start: a moment on an idle machine, which a
    // look after the click can miss. The page itself notes whether the words were ever shown.
    await page.evaluate(() => {
      const seen = () => document.body.textContent?.includes('Kamera wird gewechselt …') ?? false
      const marker = document.documentElement
      new MutationObserver(() => {
        if (seen()) marker.dataset.sawSwitching = 'yes'
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
    })
    await dialog.getByRole('button', { name: 'Kamera wechseln' }).click()
    await expect(page.locator('html')).toHaveAttribute('data-saw-switching', 'yes')
    await expect(dialog.getByRole('button', { name: 'Auslösen' })).toBeVisible({ timeout: 15_000 })
    await expect(video).toHaveClass(/-scale-x-100/)
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'items-camera-live-de-390')
    await dialog.getByRole('button', { name: 'Auslösen' }).click()
    const review = page.getByRole('dialog', { name: 'Foto prüfen' })
    await expect(review.getByRole('button', { name: 'Übernehmen' })).toBeVisible()
    await screenshotScreen(page, 'items-camera-review-de-390')
    // The photo itself is not mirrored: only the preview is.
    await review.getByRole('button', { name: 'Übernehmen' }).click()
    await expect(page.getByText(/^Foto: photo_\d+\.jpg$/)).toBeVisible()
    await context.close()
  } finally {
    await twoCameras.close()
  }
})

test('the circle page shows six of seven items, each linking to its page, and a link to all of them', async ({
  page,
  request,
}) => {
  const admin = await createSignedInUser(request, 'items-seven', 'Sieben Sachen')
  const circleId = await createCircle(request, admin, { name: 'Seven Things' })
  const names = ['Axe', 'Bucket', 'Chisel', 'Drill', 'Easel', 'File', 'Glue gun']
  const ids: string[] = []
  for (const name of names) {
    const created = await request.post('/api/items', {
      data: { name, circleId },
      headers: { Authorization: `Bearer ${admin.token}` },
    })
    ids.push(((await created.json()) as { item: { id: string } }).item.id)
  }
  const { readFile } = await import('node:fs/promises')
  const uploaded = await request.post(`/api/items/${ids[6]}/image`, {
    headers: { Authorization: `Bearer ${admin.token}` },
    multipart: {
      image: {
        name: 'glue.jpg',
        mimeType: 'image/jpeg',
        buffer: await readFile(await photoFile('glue.jpg', 600, 400)),
      },
    },
  })
  expect(uploaded.status()).toBe(200)
  await signInAs(page, admin)
  await page.goto(`/circles/${circleId}`)
  const card = page.getByRole('region', { name: 'Items' })
  // The private thumbnail shows in the card, fetched with the session.
  await expect(card.getByRole('link', { name: /Glue gun/ }).locator('img')).toHaveAttribute('src', /^blob:/)
  await expect(card.getByRole('link', { name: /Glue gun/ })).toHaveAttribute('href', `/items/${ids[6]}`)
  await expect(card.getByRole('link', { name: /^Axe/ })).toHaveCount(0)
  await card.getByRole('link', { name: 'All items (7)' }).click()
  await expect(page).toHaveURL(new RegExp(`/circle/${circleId}/items$`))
  await expect(page.getByRole('main').getByRole('listitem')).toHaveCount(7)
})

test('the circle’s items list: edit and delete on the cards the viewer may change, none elsewhere', async ({
  page,
  request,
  axe,
}) => {
  test.setTimeout(90_000)
  const ida = await createSignedInUser(request, 'items-actions-ida', 'Ida Admin')
  const ben = await createSignedInUser(request, 'items-actions-ben', 'Ben Member')
  const circleId = await createCircle(request, ida, { name: 'Corner Shop' })
  await joinCircle(request, circleId, ida, ben)
  const ladder = await createItem(request, ida, circleId, { name: 'Ladder' })
  const saw = await createItem(request, ida, circleId, { name: 'Saw' })
  await requestHandover(request, ida, { itemId: saw, receiverId: ben.user.id })
  const tent = await createItem(request, ben, circleId, { name: 'Tent' })

  await signInAs(page, ben)
  await page.goto(`/circle/${circleId}/items`)
  const card = (name: string) => page.getByRole('main').getByRole('listitem').filter({ hasText: name })
  await expect(card('Tent').getByRole('link', { name: 'Edit Tent' })).toBeVisible()
  await expect(card('Tent').getByRole('button', { name: 'Delete Tent' })).toBeVisible()
  // Ida's items are not Ben's to change; the pending one is nobody's to change.
  await expect(card('Ladder').getByRole('button')).toHaveCount(0)
  await expect(card('Ladder').getByRole('link', { name: /^Edit/ })).toHaveCount(0)
  await expect(card('Saw').getByRole('link', { name: /^Edit/ })).toHaveCount(0)
  await expectAccessible(page, axe)
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'items-card-actions-en-390')
  await page.setViewportSize({ width: 1280, height: 900 })

  await card('Tent').getByRole('link', { name: 'Edit Tent' }).click()
  await expect(page).toHaveURL(
    new RegExp(`/circle/${circleId}/items/${tent}/edit\\?from=%2Fcircle%2F${circleId}%2Fitems$`),
  )
  await expect(page.getByLabel('Name')).toHaveValue('Tent')
  await page.getByLabel('Name').fill('Tent for two')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page).toHaveURL(new RegExp(`/circle/${circleId}/items$`))
  await expect(card('Tent for two')).toBeVisible()

  await card('Tent for two').getByRole('button', { name: 'Delete Tent for two' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete this item?' })
  await expect(dialog.getByText('Are you sure you want to delete this item?')).toBeVisible()
  await dialog.getByRole('button', { name: 'Delete item' }).click()
  await expect(toast(page, 'success', 'Item deleted')).toBeVisible()
  await expect(card('Tent for two')).toHaveCount(0)

  // Typed into the address bar, the edit of an item with a pending handover says why on the item's page.
  await page.goto(`/circle/${circleId}/items/${saw}/edit`)
  await expect(page).toHaveURL(new RegExp(`/items/${saw}$`))
  await expect(
    page.getByText('This item has a pending handover and cannot be changed until it is answered.'),
  ).toBeVisible()

  // The admin edits and deletes what they hold completely.
  await signInAs(page, ida)
  await page.goto(`/circle/${circleId}/items`)
  await expect(card('Ladder').getByRole('link', { name: 'Edit Ladder' })).toBeVisible()
  await expect(card('Ladder').getByRole('button', { name: 'Delete Ladder' })).toBeVisible()
  await expect(card('Saw').getByRole('button')).toHaveCount(0)

  // A handover of the ladder is requested from another tab while Ida is asked whether to delete it:
  // the card updates live, the question stays, and the server's refusal says why. Nothing is lost.
  await card('Ladder').getByRole('button', { name: 'Delete Ladder' }).click()
  await expect(dialog.getByText('Are you sure you want to delete this item?')).toBeVisible()
  await requestHandover(request, ida, { itemId: ladder, receiverId: ben.user.id })
  await expect(card('Ladder').getByText('Handover pending')).toBeVisible()
  await dialog.getByRole('button', { name: 'Delete item' }).click()
  await expect(
    toast(page, 'error', 'This item has a pending handover and cannot be changed until it is answered.'),
  ).toBeVisible()
  await expect(dialog).toBeHidden()
  await expect(card('Ladder').getByRole('button')).toHaveCount(0)
})

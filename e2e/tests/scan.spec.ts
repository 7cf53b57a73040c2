// Issue 27, scanning (docs/decisions/0052 "Scanning"): a printed label filmed by Chromium's fake camera
// (a Y4M file written from the label page's own pixels) opens the item, where the person hands it over
// and the receiver, scanning the same label on a phone, accepts. Also: a QR code that is not ours, a
// denied camera with a chosen photo instead, an outsider, an invitation's QR code. Real server, real
// API, the app's real QR reader (Chromium on Linux has no BarcodeDetector: zxing-wasm from our build).
import type { APIRequestContext, Page } from '@playwright/test'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { cameraBrowser, personAt, qrPng, writeY4m } from '../support/fake-camera'
import { expect, test, type Axe } from '../support/fixtures'
import { screenshotScreen, useGerman } from './auth-support'
import { createCircle, createSignedInUser, joinCircle, signInAs, type Session } from './circles-support'
import { createItem } from './handovers-support'

/** The label as printed: the label page's pixels of one item's label (QR code, name, short code). */
async function printedLabel(page: Page, owner: Session, circleId: string, name: string) {
  await signInAs(page, owner)
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`/circles/${circleId}/labels`)
  const label = page.getByTestId('item-label').filter({ hasText: name })
  await expect(label).toBeVisible()
  const png = await label.screenshot()
  const image = PNG.sync.read(png)
  const link = jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data
  expect(link).toMatch(/\/i\/[2-9A-HJKMNP-TV-Z]{8}$/)
  return { png, link: link! }
}

async function scene(request: APIRequestContext, tag: string) {
  const ada = await createSignedInUser(request, `scan-${tag}-ada`, 'Ada Owner')
  const ben = await createSignedInUser(request, `scan-${tag}-ben`, 'Ben Neighbour')
  const circleId = await createCircle(request, ada, { name: 'Workshop' })
  await joinCircle(request, circleId, ada, ben)
  const ladderId = await createItem(request, ada, circleId, { name: 'Ladder' })
  return { ada, ben, circleId, ladderId }
}

const scanDialog = (page: Page, name = 'Scan a code') => page.getByRole('dialog', { name })

async function dialogAccessible(page: Page, axe: Axe) {
  await axe.expectNoA11yViolations(page, { include: ['dialog[open]'] })
}

test('a printed label, scanned, opens the item: Ada hands it over, Ben scans it on his phone and accepts', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  test.setTimeout(180_000)
  const { ada, ben, circleId, ladderId } = await scene(request, 'main')
  const { png } = await printedLabel(page, ada, circleId, 'Ladder')
  const video = testInfo.outputPath('label.y4m')
  await writeY4m(png, video)

  const camera = await cameraBrowser(video)
  try {
    // Ada, at her computer, scans from her items list.
    const owner = await personAt(camera, baseURL!)
    await signInAs(owner.page, ada)
    await owner.page.goto('/items')
    const wasm = owner.page.waitForResponse((response) => response.url().endsWith('.wasm'))
    await owner.page.getByRole('main').getByRole('button', { name: 'Scan' }).click()
    await expect(scanDialog(owner.page)).toBeVisible()
    // The reader comes from our own origin (no CDN), as WebAssembly, and the CSP lets it compile.
    const served = await wasm
    expect(new URL(served.url()).origin).toBe(new URL(baseURL!).origin)
    expect(served.headers()['content-type']).toBe('application/wasm')
    // Precompressed at build time (brotli 11): about a third of the 1.1 MB on the wire.
    expect(served.headers()['content-encoding']).toBe('br')
    await expect(owner.page).toHaveURL(new RegExp(`/items/${ladderId}$`), { timeout: 20_000 })
    await expect(scanDialog(owner.page)).toHaveCount(0)
    await expect(owner.page.getByRole('heading', { level: 1, name: 'Ladder' })).toBeVisible()
    // The camera is off once the code is read.
    expect(
      await owner.page.evaluate(() =>
        Array.from(document.querySelectorAll('video')).every(
          (v) => !(v.srcObject as MediaStream | null)?.getTracks().some((t) => t.readyState === 'live'),
        ),
      ),
    ).toBe(true)

    await owner.page.getByRole('link', { name: 'Hand over' }).click()
    await owner.page.getByLabel('Receiver', { exact: true }).selectOption({ label: 'Ben Neighbour' })
    await owner.page.getByRole('button', { name: 'Send handover request' }).click()
    await expect(owner.page.getByText('Handover request sent')).toBeVisible()

    // Ben, on his phone, scans from the header on the dashboard: the item, with the answer in place.
    const receiver = await personAt(camera, baseURL!, { width: 390, height: 844 })
    await signInAs(receiver.page, ben)
    await receiver.page.goto('/dashboard')
    await receiver.page
      .getByRole('banner')
      .getByRole('button', { name: 'Scan a label or invitation' })
      .click()
    await expect(receiver.page).toHaveURL(new RegExp(`/items/${ladderId}$`), { timeout: 20_000 })
    await expect(receiver.page.getByText('Item Handover Received')).toBeVisible()
    await receiver.page.getByRole('button', { name: 'Accept' }).click()
    await expect(receiver.page.getByText('Handover confirmed successfully')).toBeVisible()
  } finally {
    await camera.close()
  }
})

test('a QR code that is not ours is named so and scanning goes on; the dialog in English and German', async ({
  request,
  baseURL,
  axe,
}, testInfo) => {
  test.setTimeout(120_000)
  const ada = await createSignedInUser(request, 'scan-foreign', 'Ada Owner')
  const video = testInfo.outputPath('foreign.y4m')
  await writeY4m(await qrPng('https://example.org/not-circles'), video)
  const camera = await cameraBrowser(video)
  try {
    for (const language of ['en', 'de'] as const) {
      const person = await personAt(camera, baseURL!)
      if (language === 'de') await useGerman(person.page)
      await signInAs(person.page, ada)
      await person.page.goto('/dashboard')
      const dialog = scanDialog(person.page, language === 'en' ? 'Scan a code' : 'Code scannen')
      await person.page
        .getByRole('main')
        .getByRole('button', { name: language === 'en' ? 'Scan a label' : 'Etikett scannen' })
        .click()
      await expect(
        dialog.getByText(language === 'en' ? 'This is not a Circles code.' : 'Das ist kein Circles-Code.', {
          exact: false,
        }),
      ).toBeVisible({ timeout: 20_000 })
      // Still scanning: the camera is live, the page has not moved.
      await expect(dialog.locator('video')).toBeVisible()
      await expect(person.page).toHaveURL(/\/dashboard$/)
      await dialogAccessible(person.page, axe)
      await screenshotScreen(person.page, `scan-dialog-${language}-1280`)
      await person.page.setViewportSize({ width: 390, height: 844 })
      await dialogAccessible(person.page, axe)
      await screenshotScreen(person.page, `scan-dialog-${language}-390`)
      await dialog.getByRole('button', { name: language === 'en' ? 'Close' : 'Schließen' }).click()
      await expect(dialog).toHaveCount(0)
      await person.context.close()
    }
  } finally {
    await camera.close()
  }
})

test('camera denied: the photo dialog’s message, and a chosen photo of the label opens the item', async ({
  page,
  request,
  baseURL,
  axe,
}) => {
  test.setTimeout(120_000)
  const { ada, circleId, ladderId } = await scene(request, 'denied')
  const { png } = await printedLabel(page, ada, circleId, 'Ladder')
  const camera = await cameraBrowser('denied')
  try {
    const person = await personAt(camera, baseURL!, { width: 390, height: 844 })
    await signInAs(person.page, ada)
    await person.page.goto('/items')
    await person.page.getByRole('main').getByRole('button', { name: 'Scan' }).click()
    const dialog = scanDialog(person.page)
    await expect(dialog.getByRole('alert')).toHaveText(/Camera access was denied/)
    await dialogAccessible(person.page, axe)
    await screenshotScreen(person.page, 'scan-dialog-denied-en-390')
    await dialog
      .getByLabel('Choose a photo of the code from this device')
      .setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: png })
    await expect(person.page).toHaveURL(new RegExp(`/items/${ladderId}$`), { timeout: 20_000 })
    await expect(person.page.getByRole('heading', { level: 1, name: 'Ladder' })).toBeVisible()
  } finally {
    await camera.close()
  }
})

test('an outsider who scans a label sees no item; an invitation’s QR code opens the join page', async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  test.setTimeout(150_000)
  const { ada, circleId } = await scene(request, 'outsider')
  const otto = await createSignedInUser(request, 'scan-otto', 'Otto Outsider')
  const { png } = await printedLabel(page, ada, circleId, 'Ladder')
  const labelVideo = testInfo.outputPath('label.y4m')
  await writeY4m(png, labelVideo)
  const camera = await cameraBrowser(labelVideo)
  try {
    const outsider = await personAt(camera, baseURL!)
    await signInAs(outsider.page, otto)
    await outsider.page.goto('/items')
    await outsider.page.getByRole('main').getByRole('button', { name: 'Scan' }).click()
    await expect(
      outsider.page.getByRole('heading', { name: 'This item does not exist, or it is not shared with you.' }),
    ).toBeVisible({ timeout: 20_000 })
    await expect(outsider.page.getByText('Ladder')).toHaveCount(0)
  } finally {
    await camera.close()
  }

  // Ada invites Otto with a QR code (the circle page's, holding the app's join link); Otto scans it.
  const invited = await request.post(`/api/circles/${circleId}/invitations/qr`, {
    data: { email: otto.user.email },
    headers: { Authorization: `Bearer ${ada.token}` },
  })
  expect(invited.status(), await invited.text()).toBe(201)
  const { token } = ((await invited.json()) as { invitation: { token: string } }).invitation
  const inviteVideo = testInfo.outputPath('invitation.y4m')
  await writeY4m(await qrPng(`${new URL(baseURL!).origin}/join?token=${token}`), inviteVideo)
  const second = await cameraBrowser(inviteVideo)
  try {
    const guest = await personAt(second, baseURL!)
    await signInAs(guest.page, otto)
    await guest.page.goto('/dashboard')
    await guest.page.getByRole('main').getByRole('button', { name: 'Scan a label' }).click()
    await expect(guest.page).toHaveURL(new RegExp(`/join\\?token=${token}$`), { timeout: 20_000 })
    await expect(
      guest.page.getByRole('heading', { level: 1, name: "You're invited to Workshop" }),
    ).toBeVisible()
  } finally {
    await second.close()
  }
})

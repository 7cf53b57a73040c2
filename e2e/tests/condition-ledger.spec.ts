import { access, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { APIRequestContext, Locator, Page } from '@playwright/test'
import pg from 'pg'
import sharp from 'sharp'
import { expect, test } from '../support/fixtures'
import { expectAccessible, screenshotScreen, useGerman } from './auth-support'
import { createCircle, createSignedInUser, joinCircle, type Session, signInAs } from './circles-support'
import { createItem, requestHandover, secondBrowser } from './handovers-support'

// Condition evidence on the ledger pages (issue 28) in Chromium against the real server: both sides'
// photos on the block page, each fetched, hashed on this device and compared with the digest the block
// recorded; 'Check a photo' with the right and a wrong file; a photo replaced on the server's disk
// raises the alarm on the page of a member who opens the block afterwards.

const auth = (session: Session) => ({ Authorization: `Bearer ${session.token}` })

/**
 * A small real JPEG drawn here (no picture from elsewhere, so no licence to carry): the item's body in
 * `colour`, and a scratch where `scratch` says.
 */
function drawnPhoto(colour: string, scratch: [number, number, number, number]) {
  const [x1, y1, x2, y2] = scratch
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480">
    <rect width="640" height="480" fill="#e7ebef"/>
    <rect x="140" y="130" width="360" height="220" rx="28" fill="${colour}"/>
    <circle cx="470" cy="240" r="36" fill="#1f2933"/>
    <line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="#f8fafc" stroke-width="7" stroke-linecap="round"/>
  </svg>`
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer()
}

interface Uploaded {
  id: string
  url: string
  sha256: string
}

/** POST /api/handovers/photos: one condition photo, the uploader's until attached. */
async function uploadPhoto(request: APIRequestContext, session: Session, name: string, bytes: Buffer) {
  const response = await request.post('/api/handovers/photos', {
    headers: auth(session),
    multipart: { image: { name, mimeType: 'image/jpeg', buffer: bytes } },
  })
  expect(response.status(), await response.text()).toBe(201)
  return ((await response.json()) as { photo: Uploaded }).photo
}

/**
 * Ida hands a drill to Ben with two photos and a note; Ben accepts with one photo and a note of his own.
 * Returns the block's id and the photos as the server stored them.
 */
async function handoverWithCondition(request: APIRequestContext, label: string) {
  const ida = await createSignedInUser(request, `${label}-ida`, 'Ida Owner')
  const ben = await createSignedInUser(request, `${label}-ben`, 'Ben Neighbour')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)
  const itemId = await createItem(request, ida, circleId, { name: 'Cordless drill' })
  const sent = [
    await uploadPhoto(request, ida, 'drill-front.jpg', await drawnPhoto('#2f6f9f', [200, 190, 300, 250])),
    await uploadPhoto(request, ida, 'drill-side.jpg', await drawnPhoto('#3d7f5f', [180, 300, 260, 320])),
  ]
  const handoverId = await requestHandover(request, ida, {
    itemId,
    receiverId: ben.user.id,
    condition: { photoIds: sent.map((p) => p.id), note: 'Small scratch on the battery cover.' },
  } as Parameters<typeof requestHandover>[2])
  const received = [
    await uploadPhoto(request, ben, 'on-arrival.jpg', await drawnPhoto('#8a5a2b', [230, 160, 420, 300])),
  ]
  const answer = await request.put(`/api/handovers/${handoverId}/status`, {
    headers: auth(ben),
    data: {
      status: 'CONFIRMED',
      condition: {
        photoIds: received.map((p) => p.id),
        note: 'Received with a dent on the lid.',
        asDescribed: false,
      },
    },
  })
  expect(answer.status(), await answer.text()).toBe(200)
  const { handover } = (await answer.json()) as { handover: { block: { id: string; height: number } | null } }
  expect(handover.block).not.toBeNull()
  return { ida, ben, circleId, blockId: handover.block!.id, height: handover.block!.height, sent, received }
}

/** The exact bytes the server serves for a photo (what a member saves from the block page). */
async function servedBytes(request: APIRequestContext, session: Session, url: string) {
  const response = await request.get(url, { headers: auth(session) })
  expect(response.status()).toBe(200)
  return response.body()
}

/** Drops a file on an element as a browser does: a drop event whose DataTransfer holds the file. */
async function dropFile(target: Locator, name: string, bytes: Buffer) {
  const dataTransfer = await target.page().evaluateHandle(
    ({ name, base64 }) => {
      const transfer = new DataTransfer()
      const binary = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0))
      transfer.items.add(new File([binary], name, { type: 'image/jpeg' }))
      return transfer
    },
    { name, base64: bytes.toString('base64') },
  )
  await target.dispatchEvent('dragenter', { dataTransfer })
  await target.dispatchEvent('drop', { dataTransfer })
}

/**
 * Replaces a stored photo's bytes as an operator with access to the server's storage could: on disk
 * under the e2e server's DATA_DIR/uploads (a fresh `circles-e2e-data-*` directory, support/server.ts),
 * or in PostgreSQL's stored_files when the run uses it.
 */
async function replaceStoredPhoto(url: string, bytes: Buffer) {
  const name = url.split('/').at(-1)!
  const databaseUrl = process.env.E2E_DATABASE_URL
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    try {
      const result = await client.query('UPDATE stored_files SET bytes = $1, size = $2 WHERE name = $3', [
        bytes,
        bytes.length,
        name,
      ])
      expect(result.rowCount).toBe(1)
    } finally {
      await client.end()
    }
    return
  }
  const found: string[] = []
  for (const entry of await readdir(tmpdir())) {
    if (!entry.startsWith('circles-e2e-data-')) continue
    const path = join(tmpdir(), entry, 'uploads', name)
    if (
      await access(path).then(
        () => true,
        () => false,
      )
    )
      found.push(path)
  }
  // The name is 128 random bits: exactly one server stored it.
  expect(found, `the stored file ${name} under a circles-e2e-data-*/uploads`).toHaveLength(1)
  await writeFile(found[0]!, bytes)
}

const tiles = (page: Page) => page.getByTestId('condition-photo')

test('a member sees both sides’ condition photos verified on the block page, and checks a photo', async ({
  page,
  request,
  axe,
}) => {
  test.setTimeout(120_000)
  const { ben, blockId, height, sent, received } = await handoverWithCondition(request, 'condition-view')
  await signInAs(page, ben)
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`/blockchain/${blockId}`)

  const condition = page.getByTestId('condition-section')
  await expect(condition.getByRole('heading', { level: 2, name: 'Condition' })).toBeVisible()
  const sender = page.getByTestId('condition-from')
  const receiver = page.getByTestId('condition-to')
  await expect(sender.getByRole('heading', { name: 'Ida Owner · handed it over' })).toBeVisible()
  await expect(receiver.getByRole('heading', { name: 'Ben Neighbour · received it' })).toBeVisible()
  await expect(sender.getByText('Small scratch on the battery cover.')).toBeVisible()
  await expect(receiver.getByText('Received with a dent on the lid.')).toBeVisible()
  await expect(condition.getByText('Note matches the ledger')).toHaveCount(2)
  await expect(tiles(page).and(page.locator('[data-status="verified"]'))).toHaveCount(3)
  await expect(condition.getByText(`Recorded in block #${height}`)).toHaveCount(3)
  // Shown from the checked bytes, and the pictures really render.
  const first = sender.getByRole('img', { name: 'Photo 1 by Ida Owner' })
  await expect(first).toHaveAttribute('src', /^blob:/)
  expect(await first.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(640)
  await expect(page.getByText('Verified on this device')).toBeVisible()
  await expect(page.getByTestId('condition-alarm')).toHaveCount(0)
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'condition-block-en-1280')

  // Check a photo: the second of Ida's photos, as the server serves it, dropped on the zone.
  const check = page.getByTestId('check-photo')
  const result = page.getByTestId('check-photo-result')
  await dropFile(
    page.getByTestId('check-photo-drop'),
    'drill-side.jpg',
    await servedBytes(request, ben, sent[1]!.url),
  )
  await expect(
    result.getByText(`drill-side.jpg is photo 2 by Ida Owner, recorded in block #${height}.`),
  ).toBeVisible()
  // A picture that is none of them, picked with the keyboard-reachable file input.
  const dir = await mkdtemp(join(tmpdir(), 'circles-e2e-condition-'))
  const wrong = join(dir, 'other-drill.jpg')
  await writeFile(wrong, await drawnPhoto('#2f6f9f', [210, 190, 300, 250]))
  await check.getByLabel('Choose a picture').setInputFiles(wrong)
  await expect(result.getByText("Not one of this block's photos")).toBeVisible()
  await expect(result.getByText(/other-drill\.jpg has a different fingerprint/)).toBeVisible()
  // And Ben's own photo, picked.
  const own = join(dir, 'ben.jpg')
  await writeFile(own, await servedBytes(request, ben, received[0]!.url))
  await check.getByLabel('Choose a picture').setInputFiles(own)
  await expect(
    result.getByText(`ben.jpg is photo 1 by Ben Neighbour, recorded in block #${height}.`),
  ).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'condition-check-en-1280')

  await page.setViewportSize({ width: 390, height: 844 })
  await page.reload()
  await expect(tiles(page).and(page.locator('[data-status="verified"]'))).toHaveCount(3)
  await screenshotScreen(page, 'condition-block-en-390')

  await useGerman(page)
  await page.reload()
  await expect(page.getByRole('heading', { level: 2, name: 'Zustand' })).toBeVisible()
  await expect(sender.getByRole('heading', { name: 'Ida Owner · hat übergeben' })).toBeVisible()
  await expect(page.getByText(`Festgehalten in Block #${height}`)).toHaveCount(3)
  await expect(page.getByText('Notiz passt zum Protokoll')).toHaveCount(2)
  await page.getByTestId('check-photo').getByLabel('Bild auswählen').setInputFiles(wrong)
  await expect(page.getByText('Keines der Fotos dieses Blocks')).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'condition-block-de-390')
  await page.setViewportSize({ width: 1280, height: 900 })
  await expect(page.getByText(`Festgehalten in Block #${height}`)).toHaveCount(3)
  await screenshotScreen(page, 'condition-block-de-1280')

  // The ledger list marks the block with its photos.
  await page.goto('/blockchain')
  await expect(page.getByTestId('condition-badge')).toHaveText('3 Zustandsfotos')
  await screenshotScreen(page, 'condition-ledger-de-1280')
})

test('a photo replaced on the server raises the alarm on the block page, naming the photo', async ({
  browser,
  request,
  baseURL,
  axe,
}) => {
  test.setTimeout(120_000)
  const { ida, blockId, height, sent } = await handoverWithCondition(request, 'condition-swap')
  // The operator swaps Ida's first photo for another picture; the database still says it is the same.
  await replaceStoredPhoto(sent[0]!.url, await drawnPhoto('#2f6f9f', [200, 190, 300, 250 + 40]))

  // Ida opens the block at another browser (nothing of the photo in its cache).
  const { context, page } = await secondBrowser(browser, baseURL!)
  try {
    await signInAs(page, ida)
    await page.goto(`/blockchain/${blockId}`)
    const alarm = page.getByTestId('condition-alarm')
    await expect(alarm.getByText('A recorded photo or note was changed')).toBeVisible()
    await expect(
      alarm.getByText(
        `Photo 1 by Ida Owner is not the one recorded in block #${height}: the server sent other bytes.`,
      ),
    ).toBeVisible()
    await expect(tiles(page).nth(0)).toHaveAttribute('data-status', 'mismatch')
    await expect(tiles(page).nth(0).getByText(`Not the photo recorded in block #${height}`)).toBeVisible()
    // The swapped bytes are not shown as if they were the recorded photo.
    await expect(tiles(page).nth(0).locator('img')).toHaveCount(0)
    await expect(tiles(page).nth(1)).toHaveAttribute('data-status', 'verified')
    await expect(tiles(page).nth(2)).toHaveAttribute('data-status', 'verified')
    // The evidence for the other members: the block and the digest that was expected and found.
    const download = page.waitForEvent('download')
    await alarm.getByRole('button', { name: 'Download evidence' }).click()
    const file = await (await download).path()
    const evidence = JSON.parse(await readFile(file, 'utf8'))
    expect(evidence).toMatchObject({
      kind: 'circles-condition-evidence',
      block: { id: blockId, height },
      photos: [{ side: 'from', photo: 1, expected: sent[0]!.sha256 }],
    })
    expect(evidence.photos[0].actual).not.toBe(sent[0]!.sha256)
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'condition-alarm-en-1280')
    await page.setViewportSize({ width: 390, height: 844 })
    await screenshotScreen(page, 'condition-alarm-en-390')
  } finally {
    await context.close()
  }
})

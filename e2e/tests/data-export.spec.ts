import { execFile } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { APIRequestContext, Page } from '@playwright/test'
import { strFromU8, unzipSync } from 'fflate'
import sharp from 'sharp'
import { expect, test } from '../support/fixtures'
import { expectAccessible, screenshotScreen, useGerman } from './auth-support'
import { createCircle, createSignedInUser, joinCircle, type Session, signInAs } from './circles-support'
import { createItem, requestHandover } from './handovers-support'

// "Download my data" (issue 24, GDPR Art. 20; docs/decisions/0038) against the real server: the card
// on the profile's 'Your data' tab, the browser's download of the ZIP, what is in it, and the limit.

const auth = (session: Session) => ({ Authorization: `Bearer ${session.token}` })

/** A small real JPEG, uploaded as the item's picture; returns its URL. */
async function uploadPicture(request: APIRequestContext, owner: Session, itemId: string) {
  const bytes = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#c06020' } })
    .jpeg()
    .toBuffer()
  const uploaded = await request.post(`/api/items/${itemId}/image`, {
    headers: auth(owner),
    multipart: { image: { name: 'drill.jpg', mimeType: 'image/jpeg', buffer: bytes } },
  })
  expect(uploaded.status(), await uploaded.text()).toBe(200)
  return ((await uploaded.json()) as { imageUrl: string }).imageUrl
}

const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

/** `npx circles-ledger …` from the repository, as the README documents it. */
function circlesLedger(args: string[]) {
  return new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile('npx', ['--no-install', 'circles-ledger', ...args], { cwd: repoRoot }, (error, stdout) =>
      resolve({ code: error ? Number(error.code) : 0, stdout }),
    )
  })
}

async function openDataTab(page: Page, tab: string) {
  await page.goto('/profile')
  await page.getByRole('tab', { name: tab }).click()
}

test('a member downloads her data: the ZIP holds her JSON, her item’s picture and a README', async ({
  page,
  request,
  axe,
}) => {
  test.setTimeout(90_000)
  const ida = await createSignedInUser(request, 'export-ida', 'Ida Export')
  const ben = await createSignedInUser(request, 'export-ben', 'Ben Export')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)
  const drill = await createItem(request, ida, circleId, { name: 'Drill' })
  const pictureUrl = await uploadPicture(request, ida, drill)
  const handoverId = await requestHandover(request, ida, {
    itemId: drill,
    receiverId: ben.user.id,
    requesterComment: 'The charger is in the box',
    secretMessage: 'Locker code 4711',
  })
  const confirmed = await request.put(`/api/handovers/${handoverId}/status`, {
    data: { status: 'CONFIRMED' },
    headers: auth(ben),
  })
  expect(confirmed.status()).toBe(200)

  await signInAs(page, ida)
  await openDataTab(page, 'Your data')
  const card = page.getByRole('main')
  await expect(card.getByRole('heading', { name: 'Download my data' })).toBeVisible()
  await expect(card.getByText('The items you created or hold, with their pictures')).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'data-export-en-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'data-export-en-390')
  await page.setViewportSize({ width: 1280, height: 720 })

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('button', { name: 'Download my data' }).click(),
  ])
  expect(download.suggestedFilename()).toMatch(/^circles-data-\d{4}-\d{2}-\d{2}\.zip$/)
  await expect(card.getByText(`Your download has started: ${download.suggestedFilename()}`)).toBeVisible()

  const files = unzipSync(new Uint8Array(await readFile((await download.path())!)))
  const picture = `pictures/${pictureUrl.split('/').pop()}`
  expect(Object.keys(files).sort()).toEqual(['README.txt', 'circles-data.json', picture])
  expect(strFromU8(files['README.txt']!)).toContain('circles-data.json')

  const data = JSON.parse(strFromU8(files['circles-data.json']!))
  expect(data).toMatchObject({ format: 'circles-data', version: 1 })
  expect(data.profile).toMatchObject({ id: ida.user.id, name: 'Ida Export', email: ida.user.email })
  expect(data.profile).not.toHaveProperty('passwordHash')
  expect(data.items).toEqual([expect.objectContaining({ id: drill, name: 'Drill', picture })])
  expect(data.handovers).toEqual([
    expect.objectContaining({
      id: handoverId,
      status: 'CONFIRMED',
      requesterComment: 'The charger is in the box',
      secretMessage: 'Locker code 4711',
    }),
  ])
  expect(data.ledger.circles[0].blocks[0].content.from.id).toBe(ida.user.id)

  // Her ledger blocks check out offline against the circle's signed checkpoint.
  const dir = await mkdtemp(join(tmpdir(), 'circles-e2e-data-'))
  await writeFile(join(dir, 'circles-data.json'), files['circles-data.json']!)
  const checked = await circlesLedger(['verify-data', join(dir, 'circles-data.json')])
  expect(checked.code, checked.stdout).toBe(0)
  expect(JSON.parse(checked.stdout)).toMatchObject({ valid: true, circleCount: 1, blockCount: 1 })

  // The picture is the one the app serves.
  const served = await request.get(pictureUrl, { headers: auth(ida) })
  expect(Buffer.from(files[picture]!).equals(await served.body())).toBe(true)
})

test('the fourth download in an hour is refused with the reason, in German', async ({
  page,
  request,
  axe,
}) => {
  const eva = await createSignedInUser(request, 'export-eva', 'Eva Export')
  for (let i = 0; i < 3; i++) {
    const res = await request.get('/api/users/me/export', { headers: auth(eva) })
    expect(res.status()).toBe(200)
  }
  await useGerman(page)
  await signInAs(page, eva)
  await openDataTab(page, 'Deine Daten')
  const card = page.getByRole('main')
  await expect(card.getByRole('heading', { name: 'Meine Daten herunterladen' })).toBeVisible()
  await screenshotScreen(page, 'data-export-de-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'data-export-de-390')
  await page.setViewportSize({ width: 1280, height: 720 })

  await card.getByRole('button', { name: 'Meine Daten herunterladen' }).click()
  await expect(card.getByRole('alert')).toHaveText(
    'Du kannst deine Daten dreimal pro Stunde herunterladen. Bitte versuche es später noch einmal.',
  )
  await expect(card.getByRole('button', { name: 'Meine Daten herunterladen' })).toBeEnabled()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'data-export-de-refused-1280')
})

import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto'
import type { APIRequestContext, Page } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import { expectAccessible, screenshotScreen, useGerman } from './auth-support'
import { createCircle, createSignedInUser, joinCircle, type Session, signInAs } from './circles-support'
import { createItem, requestHandover } from './handovers-support'

// Issue 29 (docs/decisions/0064): /profile lists the account's device witness keys, this device marked,
// and removes one; this device, its key removed, makes and registers a new one at its next check.

const auth = (session: Session) => ({ Authorization: `Bearer ${session.token}` })

/** Another of the account's devices: a key registered through the API, as a phone's browser would. */
async function registerOtherDevice(request: APIRequestContext, session: Session) {
  const { publicKey } = generateKeyPairSync('ed25519')
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url')
  const answer = await request.post('/api/ledger/witness-keys', {
    headers: {
      ...auth(session),
      'user-agent':
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1',
    },
    data: { deviceId: randomUUID(), publicKey: raw.toString('base64') },
  })
  expect(answer.status(), await answer.text()).toBe(200)
}

async function keysOf(request: APIRequestContext, session: Session) {
  const answer = await request.get('/api/ledger/witness-keys', { headers: auth(session) })
  return ((await answer.json()) as { witnessKeys: { deviceId: string; label: string | null }[] }).witnessKeys
}

async function openSecurity(page: Page, tab = 'Security & Access') {
  await page.goto('/profile')
  await page.getByRole('tab', { name: tab }).click()
}

const section = (page: Page, name = 'Devices that witness your circles') => page.getByRole('region', { name })

test('the devices that witness your circles: this one marked, another removed, this one’s key made anew', async ({
  page,
  request,
  axe,
}) => {
  test.setTimeout(120_000)
  const label = `witness-devices-${randomBytes(3).toString('hex')}`
  const ida = await createSignedInUser(request, `${label}-ida`, 'Ida Keys')
  const ben = await createSignedInUser(request, `${label}-ben`, 'Ben Keys')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)
  const itemId = await createItem(request, ida, circleId, { name: 'Ladder' })
  const handover = await requestHandover(request, ida, { itemId, receiverId: ben.user.id })
  const confirmed = await request.put(`/api/handovers/${handover}/status`, {
    data: { status: 'CONFIRMED' },
    headers: auth(ben),
  })
  expect(confirmed.status()).toBe(200)

  // No device yet: the empty state says how one comes.
  await signInAs(page, ida)
  await openSecurity(page)
  await expect(section(page).getByText(/No device has a witness key yet/)).toBeVisible()

  // This browser checks the ledger and registers its key; the phone registered one before.
  await registerOtherDevice(request, ida)
  await page.goto(`/blockchain/circle/${circleId}`)
  await expect(page.getByText('Verified on this device')).toBeVisible()
  await expect.poll(async () => (await keysOf(request, ida)).length).toBe(2)
  const [first] = (await keysOf(request, ida)).filter((k) => k.label !== 'Safari on iOS')

  await openSecurity(page)
  const list = section(page).getByRole('list', { name: 'Devices that witness your circles' })
  await expect(list.getByRole('listitem')).toHaveCount(2)
  const mine = list.getByRole('listitem').filter({ hasText: 'This device' })
  // The label comes from this browser's User-Agent (the e2e config sets one).
  await expect(mine).toContainText(/Chrome on \w+/)
  await expect(mine).toContainText('last cosigned')
  const phone = list.getByRole('listitem').filter({ hasText: 'Safari on iOS' })
  await expect(phone).toContainText('has not cosigned yet')
  await expect(section(page).getByText('2 of 10 devices')).toBeVisible()
  await expect(
    section(page).getByText(/replaces the device that has not cosigned for the longest time/),
  ).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'profile-witness-devices-en-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'profile-witness-devices-en-390')

  // Remove the phone: a dialog names it; pressed twice, one request.
  const deletes: string[] = []
  page.on('request', (r) => {
    if (r.method() === 'DELETE' && r.url().includes('/api/ledger/witness-keys/')) deletes.push(r.url())
  })
  await phone.getByRole('button', { name: 'Remove' }).click()
  const dialog = page.getByRole('dialog', { name: 'Remove Safari on iOS?' })
  await expect(dialog).toContainText('If the device is still in use, it makes a new key')
  await expectAccessible(page, axe)
  await dialog.getByRole('button', { name: 'Remove' }).dblclick()
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(page.getByText('Safari on iOS was removed.')).toBeVisible()
  expect(deletes).toHaveLength(1)

  // Remove this device's key: the next check of a ledger makes and registers a new one.
  await mine.getByRole('button', { name: 'Remove' }).click()
  await page
    .getByRole('dialog', { name: /^Remove Chrome on \w+\?$/ })
    .getByRole('button', { name: 'Remove' })
    .click()
  await expect(section(page).getByText(/No device has a witness key yet/)).toBeVisible()
  expect(await keysOf(request, ida)).toEqual([])
  await page.goto(`/blockchain/circle/${circleId}`)
  await expect(page.getByText('Verified on this device')).toBeVisible()
  await expect.poll(async () => (await keysOf(request, ida)).length).toBe(1)
  const [renewed] = await keysOf(request, ida)
  expect(renewed!.deviceId).not.toBe(first!.deviceId)

  // In German, at 390 px and at the desktop width.
  await registerOtherDevice(request, ida)
  await useGerman(page)
  await openSecurity(page, 'Sicherheit & Zugang')
  const german = section(page, 'Geräte, die deine Kreise bezeugen')
  await expect(german.getByText('Dieses Gerät')).toBeVisible()
  await expect(german.getByRole('listitem')).toHaveCount(2)
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'profile-witness-devices-de-390')
  await page.setViewportSize({ width: 1280, height: 900 })
  await screenshotScreen(page, 'profile-witness-devices-de-1280')
})

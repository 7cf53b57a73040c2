import type { APIRequestContext, Page } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import { PASSWORD, expectAccessible, screenshotScreen, useGerman } from './auth-support'
import {
  createCircle,
  createSignedInUser,
  joinCircle,
  memberRow,
  type Session,
  signInAs,
} from './circles-support'
import { createItem, requestHandover, secondBrowser } from './handovers-support'
import { addAuthenticator, withoutPasskeyAutofill } from './passkeys-support'

// Issue 24, against the real server: Ben, with items and a pending handover in Ida's circle, deletes
// his account from the profile's 'Your data' tab. A wrong password and Cancel change nothing; the right
// one signs him out everywhere onto the public notice. Ida then sees 'Deleted member', her drill back,
// his own item gone and his request withdrawn.

const auth = (session: Session) => ({ Authorization: `Bearer ${session.token}` })

/** Ida lends Ben her drill partially; Ben has his tent and asks Ida to take it (pending). */
async function bensWorld(request: APIRequestContext, label: string) {
  const ida = await createSignedInUser(request, `${label}-ida`, 'Ida Admin')
  const ben = await createSignedInUser(request, `${label}-ben`, 'Ben Borrower')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)
  const drillId = await createItem(request, ida, circleId, { name: 'Drill' })
  const lent = await requestHandover(request, ida, { itemId: drillId, receiverId: ben.user.id })
  const confirmed = await request.put(`/api/handovers/${lent}/status`, {
    data: { status: 'CONFIRMED' },
    headers: auth(ben),
  })
  expect(confirmed.status(), await confirmed.text()).toBe(200)
  const tentId = await createItem(request, ben, circleId, { name: 'Tent' })
  await requestHandover(request, ben, { itemId: tentId, receiverId: ida.user.id })
  return { ida, ben, circleId, drillId, tentId }
}

async function openYourData(page: Page, tab: string) {
  await page.goto('/profile')
  await page.getByRole('tab', { name: tab }).click()
}

test('Ben deletes his account: a wrong password and Cancel change nothing, then he is gone and Ida sees "Deleted member"', async ({
  page,
  request,
  browser,
  baseURL,
  axe,
}) => {
  test.setTimeout(180_000)
  const { ida, ben, circleId, drillId, tentId } = await bensWorld(request, 'delete')

  // Ben is also signed in on another device.
  const other = await secondBrowser(browser, baseURL!)
  await signInAs(other.page, ben)
  await other.page.goto('/dashboard')
  await expect(other.page.getByRole('heading', { level: 1 })).toContainText('Ben Borrower')

  await signInAs(page, ben)
  await openYourData(page, 'Your data')
  const card = page.getByRole('main')
  const consequences = card.getByRole('list', { name: 'What happens when you delete your account' })
  await expect(consequences).toContainText('You leave Linden Street.')
  await expect(consequences).toContainText('Deleted, with any picture: Tent')
  await expect(consequences).toContainText('Drill goes back to Ida Admin, the admin of Linden Street.')
  await expect(consequences).toContainText('1 pending handover is withdrawn.')
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'delete-account-card-1280')

  // Wrong password: the server's message, nothing deleted.
  await card.getByRole('button', { name: 'Delete my account…' }).click()
  await card.getByLabel('Your password').fill('not my password')
  await card.getByRole('button', { name: 'Delete my account for good' }).click()
  await expect(card.getByRole('alert')).toHaveText(
    'The password is not correct. Your account has not been deleted.',
  )
  await expectAccessible(page, axe)
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'delete-account-error-390')
  await page.setViewportSize({ width: 1280, height: 900 })

  // Cancel closes the confirmation.
  await card.getByRole('button', { name: 'Cancel' }).click()
  await expect(card.getByLabel('Your password')).toHaveCount(0)
  expect((await request.get('/api/users/me', { headers: auth(ben) })).status()).toBe(200)

  // The right password.
  await card.getByRole('button', { name: 'Delete my account…' }).click()
  await card.getByLabel('Your password').fill(PASSWORD)
  await card.getByRole('button', { name: 'Delete my account for good' }).click()
  await expect(page).toHaveURL(/\/account-deleted$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Your account has been deleted.' })).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'account-deleted-1280')

  // Signed out everywhere: his other device's session is refused too.
  expect((await request.get('/api/users/me', { headers: auth(ben) })).status()).toBe(401)
  await other.page.goto('/circles')
  await expect(other.page).toHaveURL(/\/login/)
  await other.context.close()

  // Ida: Ben is no member, the drill is hers again, the tent is gone, the feed says 'Deleted member'.
  await signInAs(page, ida)
  await page.goto(`/circles/${circleId}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Linden Street' })).toBeVisible()
  await expect(memberRow(page, 'Ben Borrower')).toHaveCount(0)
  const drill = await request.get(`/api/items/${drillId}`, { headers: auth(ida) })
  expect(((await drill.json()) as { item: { ownerId: string } }).item.ownerId).toBe(ida.user.id)
  expect((await request.get(`/api/items/${tentId}`, { headers: auth(ida) })).status()).toBe(404)
  await page.goto('/dashboard')
  await expect(page.getByText(/Deleted member/).first()).toBeVisible()
  await expect(page.getByText('Ben Borrower')).toHaveCount(0)
  await page.goto(`/items/${drillId}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Drill' })).toBeVisible()
  await expect(page.getByText('Ben Borrower')).toHaveCount(0)

  // The circle's ledger still verifies, in this browser and on the server, without his name: the drill
  // to him and back reads 'Deleted member' (docs/decisions/0034).
  await page.goto(`/blockchain/circle/${circleId}`)
  await expect(page.getByText(/Ida Admin handed Drill to Deleted member/)).toBeVisible()
  await expect(page.getByTestId('ledger-device-check')).toContainText('Verified on this device')
  await page.getByRole('button', { name: 'Verify chain' }).click()
  await expect(page.getByText('The ledger is intact: every block checks out.')).toBeVisible()
  await expect(page.getByText('Ben Borrower')).toHaveCount(0)
  await expectAccessible(page, axe)
})

test('in German: the card, the refusal and the notice', async ({ page, request, axe }) => {
  test.setTimeout(120_000)
  const { ben } = await bensWorld(request, 'delete-de')
  await useGerman(page)
  await signInAs(page, ben)
  await openYourData(page, 'Deine Daten')
  const card = page.getByRole('main')
  await expect(card.getByRole('heading', { name: 'Mein Konto löschen' })).toBeVisible()
  await card.getByRole('button', { name: 'Mein Konto löschen …' }).click()
  await card.getByLabel('Dein Passwort').fill('falsch')
  await card.getByRole('button', { name: 'Mein Konto endgültig löschen' }).click()
  await expect(card.getByRole('alert')).toHaveText(
    'Das Passwort ist nicht richtig. Dein Konto wurde nicht gelöscht.',
  )
  await expectAccessible(page, axe)
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await screenshotScreen(page, `delete-account-de-${width}`)
  }
  await page.setViewportSize({ width: 1280, height: 900 })
  await card.getByLabel('Dein Passwort').fill(PASSWORD)
  await card.getByRole('button', { name: 'Mein Konto endgültig löschen' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Dein Konto wurde gelöscht.' })).toBeVisible()
  await expectAccessible(page, axe)
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await screenshotScreen(page, `account-deleted-de-${width}`)
  }
})

test('with a passkey instead of the password', async ({ page, request }) => {
  test.setTimeout(120_000)
  const { ben } = await bensWorld(request, 'delete-passkey')
  // A platform authenticator, and no passkey autofill (it would answer at once on /login).
  await withoutPasskeyAutofill(page)
  await addAuthenticator(page)
  await signInAs(page, ben)
  await openYourData(page, 'Security & Access')
  await page.getByRole('button', { name: 'Register a passkey' }).click()
  await expect(page.getByRole('list', { name: 'Passkeys' }).getByRole('listitem')).toHaveCount(1)

  await page.getByRole('tab', { name: 'Your data' }).click()
  const card = page.getByRole('main')
  await card.getByRole('button', { name: 'Delete my account…' }).click()
  await card.getByRole('button', { name: 'Use a passkey' }).click()
  await expect(page).toHaveURL(/\/account-deleted$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Your account has been deleted.' })).toBeVisible()
  expect((await request.get('/api/users/me', { headers: auth(ben) })).status()).toBe(401)
})

import type { Page } from '@playwright/test'
import { expectShownFor } from '../support/clock'
import { expect, test } from '../support/fixtures'
import { expectAccessible, openForm, screenshotScreen, toast, useGerman } from './auth-support'
import { createSignedInUser, signInAs } from './circles-support'
import { addAuthenticator, withoutPasskeyAutofill } from './passkeys-support'

// Passkeys in Chromium with its CDP virtual authenticator against the real server (rp id localhost):
// register on /profile, sign in with it from /login, delete it; the no-passkeys and removed-authenticator
// paths; the profile page's other parts.

async function openSecurityTab(page: Page) {
  await page.goto('/profile')
  await page.getByRole('tab', { name: 'Security & Access' }).click()
}

async function passkeyLogin(page: Page, email: string) {
  await openForm(page, '/login')
  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Use a passkey' }).click()
  await page.getByRole('button', { name: 'Log in with passkey' }).click()
}

test('register a passkey on /profile, log out, log in with it, delete it', async ({ page, request, axe }) => {
  test.setTimeout(90_000)
  await page.clock.install()
  const pia = await createSignedInUser(request, 'passkey-pia', 'Pia Passkey')
  await withoutPasskeyAutofill(page)
  const authenticator = await addAuthenticator(page)
  await signInAs(page, pia)
  await openSecurityTab(page)
  await expect(page.getByText('Verified', { exact: true })).toBeVisible()
  await expect(page.getByText("You haven't registered any passkeys yet.")).toBeVisible()
  const list = page.getByRole('list', { name: 'Passkeys' })
  // The success message goes after 5 s (spec 001), on the page's clock.
  await expectShownFor(page, page.getByText('Passkey registered successfully'), 5_000, () =>
    page.getByRole('button', { name: 'Register a passkey' }).click(),
  )
  await expect(list.getByRole('listitem')).toHaveCount(1)
  await expect(list.getByText('Single-device passkey · only on this device')).toBeVisible()
  await expect(list.getByText(/Registered on .* · not used yet/)).toBeVisible()
  expect(await authenticator.credentials()).toHaveLength(1)
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'profile-security-en-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'profile-security-en-390')
  await page.setViewportSize({ width: 1280, height: 720 })

  await page.getByRole('button', { name: 'Log out' }).click()
  // Signing out leaves for the home page; the public /profile shows 'Log in' before that navigation.
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible()
  await passkeyLogin(page, pia.user.email)
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back, Pia Passkey' })).toBeVisible()

  await openSecurityTab(page)
  await list.getByRole('button', { name: 'Delete' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete this passkey?' })
  await expect(dialog).toBeVisible()
  await expectAccessible(page, axe)
  await dialog.getByRole('button', { name: 'Delete passkey' }).click()
  await expect(page.getByText("You haven't registered any passkeys yet.")).toBeVisible()
})

test("an email without passkeys gets the spec's message", async ({ page, request }) => {
  const noKeys = await createSignedInUser(request, 'passkey-none', 'Nils Nokey')
  await addAuthenticator(page)
  await passkeyLogin(page, noKeys.user.email)
  await expect(
    toast(
      page,
      'error',
      "You haven't registered any passkeys yet. Please log in with your password and register a passkey in your profile settings.",
    ),
  ).toBeVisible()
  await expect(page).toHaveURL(/\/login/)
})

test('a passkey whose authenticator is gone gives the NotAllowedError message', async ({ page, request }) => {
  const gone = await createSignedInUser(request, 'passkey-gone', 'Gina Gone')
  const authenticator = await addAuthenticator(page)
  await signInAs(page, gone)
  await openSecurityTab(page)
  await page.getByRole('button', { name: 'Register a passkey' }).click()
  await expect(page.getByText('Passkey registered successfully')).toBeVisible()
  await page.getByRole('button', { name: 'Log out' }).click()
  // Signing out leaves for the home page; the public /profile shows 'Log in' before that navigation.
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible()
  // The phone with the passkey is gone; this browser has an authenticator without it.
  await authenticator.remove()
  await addAuthenticator(page)
  await passkeyLogin(page, gone.user.email)
  await expect(
    toast(
      page,
      'error',
      'No passkeys found for this account on this device. Please try using the device where you registered your passkey, or register a new passkey on this device.',
    ),
  ).toBeVisible({ timeout: 70_000 })
})

test('the profile: edit the name with validation, the signed-out note, in German at 390 px', async ({
  page,
  request,
  axe,
}) => {
  const rosa = await createSignedInUser(request, 'profile-rosa', 'Rosa Profil')
  await useGerman(page)
  await page.goto('/profile')
  await expect(
    page.getByRole('heading', { name: 'Bitte melde dich an, um dein Profil zu sehen' }),
  ).toBeVisible()
  await signInAs(page, rosa)
  await page.goto('/profile')
  await expect(page.getByRole('tab', { name: 'Profilinformationen' })).toHaveAttribute(
    'aria-selected',
    'true',
  )
  await expect(page.getByText(rosa.user.email)).toBeVisible()
  await page.getByRole('button', { name: 'Bearbeiten' }).click()
  const name = page.getByLabel('Name')
  await name.fill('R')
  await page.getByRole('button', { name: 'Speichern', exact: true }).click()
  await expect(page.getByText('Der Name muss mindestens 2 Zeichen haben')).toBeVisible()
  await name.fill('Rosa Neu')
  await page.getByRole('button', { name: 'Speichern', exact: true }).click()
  await expect(page.getByText('Profil gespeichert')).toBeVisible()
  await expect(page.getByRole('main').getByText('Rosa Neu')).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'profile-info-de-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'profile-info-de-390')
  await page.getByRole('tab', { name: 'Sicherheit & Zugang' }).click()
  await expect(page.getByText('Du hast noch keine Passkeys registriert.')).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'profile-security-de-390')

  // Issue 24: a named passkey in German, renamed inline.
  await addAuthenticator(page)
  await page.getByRole('button', { name: 'Passkey registrieren' }).click()
  const row = page.getByRole('list', { name: 'Passkeys' }).getByRole('listitem')
  await expect(row.getByText('Passkey für ein Gerät · nur auf diesem Gerät')).toBeVisible()
  await expect(row.getByText(/Registriert am .* · noch nicht benutzt/)).toBeVisible()
  await row.getByRole('button', { name: 'Umbenennen' }).click()
  const passkeyName = page.getByRole('textbox', { name: 'Name des Passkeys' })
  await passkeyName.fill('x'.repeat(61))
  await passkeyName.press('Enter')
  await expect(page.getByText('Ein Passkey-Name darf höchstens 60 Zeichen haben')).toBeVisible()
  await passkeyName.fill('Rosas Handy')
  await page.getByRole('button', { name: 'Speichern', exact: true }).click()
  await expect(row.getByText('Rosas Handy', { exact: true })).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'profile-passkeys-de-390')
  await page.setViewportSize({ width: 1280, height: 720 })
  await screenshotScreen(page, 'profile-passkeys-de-1280')
})

// Issue 24 (ADR 0036): named passkeys, and sign-in without typing the email.

test('a passkey is named, renamed, and signs in without the email; the list says when it was used', async ({
  page,
  request,
  axe,
}) => {
  test.setTimeout(90_000)
  const dora = await createSignedInUser(request, 'passkey-dora', 'Dora Discover')
  await withoutPasskeyAutofill(page)
  const authenticator = await addAuthenticator(page)
  await signInAs(page, dora)
  await openSecurityTab(page)
  await page.getByRole('button', { name: 'Register a passkey' }).click()
  const row = page.getByRole('list', { name: 'Passkeys' }).getByRole('listitem')
  await expect(row).toHaveCount(1)
  // The virtual authenticator's AAGUID is no well-known provider: the name comes from the browser
  // (Playwright's 'Desktop Chrome' says Windows in its User-Agent).
  await expect(row.getByText('Chrome on Windows', { exact: true })).toBeVisible()
  await expect(row.getByText(/Registered on .* · not used yet/)).toBeVisible()
  const [stored] = await authenticator.credentials()
  expect(stored?.isResidentCredential).toBe(true)

  await row.getByRole('button', { name: 'Rename' }).click()
  const name = page.getByRole('textbox', { name: 'Passkey name' })
  await expect(name).toBeFocused()
  await name.fill('   ')
  await name.press('Enter')
  await expect(page.getByText('Please enter a name for the passkey')).toBeVisible()
  await name.fill('Work laptop')
  await name.press('Escape')
  await expect(row.getByText('Chrome on Windows', { exact: true })).toBeVisible()
  await row.getByRole('button', { name: 'Rename' }).click()
  await name.fill('Work laptop')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(toast(page, 'success', 'Passkey renamed')).toBeVisible()
  await expect(row.getByText('Work laptop', { exact: true })).toBeVisible()
  await expect(row.getByRole('button', { name: 'Rename' })).toBeFocused()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'profile-passkeys-en-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'profile-passkeys-en-390')
  await page.setViewportSize({ width: 1280, height: 720 })

  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible()
  await openForm(page, '/login')
  await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn')
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'login-passkey-en-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'login-passkey-en-390')
  await page.setViewportSize({ width: 1280, height: 720 })
  await expect(page.getByLabel('Email')).toHaveValue('')
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back, Dora Discover' })).toBeVisible()

  await openSecurityTab(page)
  await expect(row.getByText(/Registered on .* · last used /)).toBeVisible()
})

test('without a passkey on this device, the email-less sign-in says so, in German', async ({ page, axe }) => {
  test.setTimeout(90_000)
  await useGerman(page)
  await addAuthenticator(page)
  await openForm(page, '/login')
  const button = page.getByRole('button', { name: 'Mit einem Passkey anmelden' })
  await expect(button).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'login-passkey-de-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'login-passkey-de-390')
  await button.click()
  await expect(
    toast(
      page,
      'error',
      'Auf diesem Gerät wurde kein Passkey für dieses Konto gefunden. Versuch es auf dem Gerät, auf dem du deinen Passkey registriert hast, oder registriere hier einen neuen.',
    ),
  ).toBeVisible({ timeout: 70_000 })
  await expect(page).toHaveURL(/\/login/)
})

test('passkey autofill: with a passkey on this device, /login signs in from the email field', async ({
  page,
  request,
}) => {
  const ali = await createSignedInUser(request, 'passkey-ali', 'Ali Autofill')
  await addAuthenticator(page)
  await signInAs(page, ali)
  await openSecurityTab(page)
  await page.getByRole('button', { name: 'Register a passkey' }).click()
  await expect(page.getByText('Passkey registered successfully')).toBeVisible()
  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible()
  // The page opens a conditional request; the virtual authenticator answers it as a pick would.
  await page.goto('/login')
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back, Ali Autofill' })).toBeVisible()
})

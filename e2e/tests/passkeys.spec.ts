import type { Page } from '@playwright/test'
import { expectShownFor } from '../support/clock'
import { expect, test } from '../support/fixtures'
import { expectAccessible, openForm, screenshotScreen, toast, useGerman } from './auth-support'
import { createSignedInUser, signInAs } from './circles-support'

// Passkeys in Chromium with its CDP virtual authenticator against the real server (rp id localhost):
// register on /profile, sign in with it from /login, delete it; the no-passkeys and removed-authenticator
// paths; the profile page's other parts.

/** A platform authenticator with user verification, as a phone or laptop has; returns its id. */
async function addAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  })
  return {
    remove: () => cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId }),
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  }
}

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
  await expect(list.getByText('Single-device passkey')).toBeVisible()
  await expect(list.getByText(/Registered on .* · only on this device/)).toBeVisible()
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
})

import type { APIRequestContext, Page } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import { emailText, waitForEmail } from '../support/mail'
import {
  PASSWORD,
  englishOnlyTexts,
  expectAccessible,
  logIn,
  openForm,
  screenshotScreen,
  toast,
  useGerman,
} from './auth-support'
import { type Session, createSignedInUser, signInAs } from './circles-support'
import { liveConnection, secondBrowser } from './handovers-support'

// Change password (issue 24, docs/decisions/0039) in Chromium against the real server: the inline form
// in 'Security & Access', the other browser signed out live, this one kept, the security notice, the
// new password signs in and the old one no longer does; the German texts.

const NEW_PASSWORD = 'e2e-Changed-horse-8'

/** A second sign-in of the same account, as another device has. */
async function anotherSession(request: APIRequestContext, email: string): Promise<Session> {
  const response = await request.post('/api/users/login', { data: { email, password: PASSWORD } })
  expect(response.status(), await response.text()).toBe(200)
  return (await response.json()) as Session
}

async function openSecurityTab(page: Page, tab = 'Security & Access') {
  await page.goto('/profile')
  await page.getByRole('tab', { name: tab }).click()
}

test('change the password: the other browser is signed out, this one stays; new password in, old out', async ({
  page,
  request,
  browser,
  baseURL,
  axe,
}) => {
  test.setTimeout(120_000)
  const ada = await createSignedInUser(request, 'pw-ada', 'Ada Changer')

  // Another browser, signed in as Ada too, live on her dashboard.
  const other = await secondBrowser(browser, baseURL!)
  await signInAs(other.page, await anotherSession(request, ada.user.email))
  const otherLive = liveConnection(other.page)
  await other.page.goto('/dashboard')
  await otherLive

  await signInAs(page, ada)
  await openSecurityTab(page)
  await expect(page.getByLabel('Password, hidden')).toHaveText('••••••••')
  await page.getByRole('button', { name: 'Change password' }).click()
  const current = page.getByLabel('Current password')
  await expect(current).toBeFocused()
  await expect(current).toHaveAttribute('autocomplete', 'current-password')
  await expect(page.getByLabel('New password', { exact: true })).toHaveAttribute(
    'autocomplete',
    'new-password',
  )
  await expect(page.getByLabel('Confirm new password')).toHaveAttribute('autocomplete', 'new-password')

  // The reset messages, at their fields.
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(current).toHaveAccessibleDescription('Please enter your current password')
  await current.fill(PASSWORD)
  await page.getByLabel('New password', { exact: true }).fill('short')
  await page.getByLabel('Confirm new password').fill('short')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByLabel('New password', { exact: true })).toHaveAccessibleDescription(
    /Password must be at least 8 characters long/,
  )
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD)
  await page.getByLabel('Confirm new password').fill(`${NEW_PASSWORD}x`)
  await expect(page.getByLabel('Confirm new password')).toHaveAccessibleDescription('Passwords do not match')

  // A wrong current password: said at its field; nothing ends.
  await current.fill('not-my-password-1')
  await page.getByLabel('Confirm new password').fill(NEW_PASSWORD)
  // The show/hide toggle of the current password.
  await page.getByRole('button', { name: 'Show password' }).first().click()
  await expect(current).toHaveAttribute('type', 'text')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(current).toHaveAccessibleDescription('Your current password is not correct')
  await expect(current).toBeFocused()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'change-password-error-en-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'change-password-error-en-390')
  await page.setViewportSize({ width: 1280, height: 720 })

  await current.fill(PASSWORD)
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(
    page.getByText('Your password has been changed. You were signed out everywhere else.'),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Change password' })).toBeFocused()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'change-password-done-en-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'change-password-done-en-390')
  await page.setViewportSize({ width: 1280, height: 720 })

  // The other browser is signed out live: its socket was closed and its token is refused.
  await expect(other.page).toHaveURL(/\/login/)
  await expect.poll(() => other.page.evaluate(() => localStorage.getItem('token'))).toBeNull()
  await other.context.close()

  // This browser stays signed in with its new token, across a reload.
  await page.reload()
  await page.getByRole('tab', { name: 'Security & Access' }).click()
  await expect(page.getByRole('button', { name: 'Change password' })).toBeVisible()
  const me = await page.evaluate(async () => {
    const response = await fetch('/api/users/me', {
      headers: { Authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
    })
    return response.status
  })
  expect(me).toBe(200)

  // The security notice arrived, without any secret.
  const notice = await waitForEmail(ada.user.email, { subject: /Your Circles password was changed/ })
  const text = emailText(notice)
  expect(text).toContain('/forgot-password')
  expect(text).not.toContain(NEW_PASSWORD)
  expect(text).not.toContain(PASSWORD)

  // Sign out; the old password is refused, the new one signs in.
  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(page).toHaveURL(/\/$/)
  await openForm(page, '/login')
  await logIn(page, ada.user.email, PASSWORD)
  await expect(toast(page, 'error', 'Invalid email or password')).toBeVisible()
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD)
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  await expect(page).toHaveURL(/\/dashboard/)
})

test('in German: the form, its messages, the wrong password, the notice', async ({ page, request, axe }) => {
  test.setTimeout(90_000)
  const grete = await createSignedInUser(request, 'pw-grete', 'Grete Wechsel')
  const toGerman = await request.put('/api/users/me', {
    data: { name: 'Grete Wechsel', language: 'de' },
    headers: { Authorization: `Bearer ${grete.token}` },
  })
  expect(toGerman.status()).toBe(200)
  await useGerman(page)
  await signInAs(page, grete)
  await openSecurityTab(page, 'Sicherheit & Zugang')
  await page.getByRole('button', { name: 'Passwort ändern' }).click()
  await expect(page.getByRole('heading', { name: 'Ändere dein Passwort' })).toBeVisible()
  const current = page.getByLabel('Aktuelles Passwort')
  const save = page.getByRole('button', { name: 'Speichern', exact: true })

  await save.click()
  await expect(current).toHaveAccessibleDescription('Bitte gib dein aktuelles Passwort ein')
  await current.fill(PASSWORD)
  await save.click()
  await expect(page.getByLabel('Neues Passwort', { exact: true })).toHaveAccessibleDescription(
    /Bitte fülle beide Passwortfelder aus/,
  )
  await page.getByLabel('Neues Passwort', { exact: true }).fill('kurz')
  await page.getByLabel('Neues Passwort bestätigen').fill('kurz')
  await save.click()
  await expect(page.getByLabel('Neues Passwort', { exact: true })).toHaveAccessibleDescription(
    /Das Passwort muss mindestens 8 Zeichen lang sein/,
  )
  await page.getByLabel('Neues Passwort', { exact: true }).fill(PASSWORD)
  await page.getByLabel('Neues Passwort bestätigen').fill(PASSWORD)
  await save.click()
  await expect(page.getByLabel('Neues Passwort', { exact: true })).toHaveAccessibleDescription(
    /Das neue Passwort muss sich von deinem aktuellen unterscheiden/,
  )
  await page.getByLabel('Neues Passwort', { exact: true }).fill(NEW_PASSWORD)
  await page.getByLabel('Neues Passwort bestätigen').fill(`${NEW_PASSWORD}x`)
  await expect(page.getByLabel('Neues Passwort bestätigen')).toHaveAccessibleDescription(
    'Die Passwörter stimmen nicht überein',
  )
  await page.getByLabel('Neues Passwort bestätigen').fill(NEW_PASSWORD)
  await current.fill('nicht-mein-Passwort-1')
  await save.click()
  await expect(current).toHaveAccessibleDescription('Dein aktuelles Passwort ist nicht korrekt')
  const main = page.getByRole('main')
  for (const english of englishOnlyTexts('profile', ['changePassword', 'security.title'])) {
    await expect(main.getByText(english, { exact: true })).toHaveCount(0)
  }
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'change-password-error-de-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'change-password-error-de-390')
  await page.setViewportSize({ width: 1280, height: 720 })

  await current.fill(PASSWORD)
  await save.click()
  await expect(
    page.getByText('Dein Passwort wurde geändert. Überall sonst wurdest du abgemeldet.'),
  ).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'change-password-done-de-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshotScreen(page, 'change-password-done-de-390')
  await waitForEmail(grete.user.email, { subject: /Dein Circles-Passwort wurde geändert/ })
})

// The prerendered form pages (docs/decisions/0014): a password manager fills a form as soon as it shows,
// and on a slow phone people type before the app's script has arrived. Each test holds the app's
// scripts back, fills the page as it came from the server, lets the scripts through and completes the
// form against the real server without typing anything again.
import type { Page } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import { extractLink, waitForEmail } from '../support/mail'
import { createUnverifiedUser, createVerifiedUser, PASSWORD, uniqueEmail } from './auth-support'

/**
 * Holds every script request of the page until `release()`; the HTML, styles and fonts come at once.
 * Returns when the page's HTML has arrived (module scripts delay DOMContentLoaded, so not later).
 */
async function openWithScriptsHeld(page: Page, path: string) {
  let release!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  await page.route(
    (url) => url.pathname.endsWith('.js'),
    async (route) => {
      await released
      await route.fallback()
    },
  )
  await page.goto(path, { waitUntil: 'commit' })
  return release
}

/** The form's submit button, enabled once the app runs the page. */
const submit = (page: Page, name: string) => page.getByRole('main').getByRole('button', { name })

test('/login: an email filled before the app starts continues to the password step', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'prefilled-login')
  const release = await openWithScriptsHeld(page, '/login')
  await page.getByLabel('Email').fill(user.email)
  await expect(submit(page, 'Continue with password')).toBeDisabled()

  release()
  await expect(submit(page, 'Continue with password')).toBeEnabled()
  await expect(page.getByLabel('Email')).toHaveValue(user.email)
  await submit(page, 'Continue with password').click()
  await page.getByLabel('Password', { exact: true }).fill(user.password)
  await submit(page, 'Log in').click()
  await expect(page).toHaveURL(/\/dashboard$/)
})

test('/login: an email typed while the app is still starting is kept', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'racing-login')
  await page.goto('/login', { waitUntil: 'commit' })
  await page.getByLabel('Email').fill(user.email)
  await submit(page, 'Continue with password').click()
  await page.getByLabel('Password', { exact: true }).fill(user.password)
  await submit(page, 'Log in').click()
  await expect(page).toHaveURL(/\/dashboard$/)
})

test('/login: a value a password manager sets without input events still counts', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'silent-fill-login')
  await page.goto('/login')
  await expect(submit(page, 'Continue with password')).toBeEnabled()
  // Some fillers (and Chrome's autofill before the first user gesture) set the value without events.
  await page
    .getByLabel('Email')
    .evaluate((input: HTMLInputElement, email) => (input.value = email), user.email)
  await submit(page, 'Continue with password').click()
  await page
    .getByLabel('Password', { exact: true })
    .evaluate((input: HTMLInputElement, password) => (input.value = password), user.password)
  await submit(page, 'Log in').click()
  await expect(page).toHaveURL(/\/dashboard$/)
})

test('/login: the language buttons wait for the app, then switch the page to German', async ({ page }) => {
  const release = await openWithScriptsHeld(page, '/login')
  const german = page.getByRole('group', { name: 'Language' }).getByRole('button', { name: 'DE' })
  // A press now would do nothing: the button says so by being disabled.
  await expect(german).toBeDisabled()
  release()
  await expect(german).toBeEnabled()
  await german.click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bei Circles anmelden')
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
})

test('/register: every field filled before the app starts is sent', async ({ page }) => {
  const email = uniqueEmail('prefilled-register')
  const release = await openWithScriptsHeld(page, '/register')
  await page.getByLabel('Name').fill('Prefilled Person')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByLabel('Confirm password').fill(PASSWORD)

  release()
  await submit(page, 'Create account').click()
  await expect(page.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible()
  await waitForEmail(email, { subject: /verify/i, timeoutMs: 30_000 })
})

test('/forgot-password: an email filled before the app starts gets the reset link', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'prefilled-forgot')
  const release = await openWithScriptsHeld(page, '/forgot-password')
  await page.getByLabel('Email').fill(user.email)

  release()
  await submit(page, 'Send reset link').click()
  await expect(page.getByRole('heading', { level: 1, name: 'Check Your Email' })).toBeVisible()
  await waitForEmail(user.email, { subject: /reset/i, timeoutMs: 30_000 })
})

test('/resend-verification: the app draws its field, so nothing typed can be lost; a silent fill counts', async ({
  page,
  request,
}) => {
  const user = await createUnverifiedUser(request, 'prefilled-resend')
  const release = await openWithScriptsHeld(page, '/resend-verification')
  // Not a prerendered page: until the script runs there is no field to type into.
  await expect(page.locator('body')).toBeAttached()
  await expect(page.locator('input')).toHaveCount(0)

  release()
  await expect(submit(page, 'Send verification email')).toBeEnabled()
  await page
    .getByLabel('Email')
    .evaluate((input: HTMLInputElement, email) => (input.value = email), user.email)
  await submit(page, 'Send verification email').click()
  await expect(page.getByRole('heading', { level: 1, name: 'Verification email sent!' })).toBeVisible()
})

test('/reset-password: the page checks the link before it shows a field, so nothing can be lost', async ({
  page,
  request,
}) => {
  const user = await createVerifiedUser(request, 'prefilled-reset')
  const asked = await request.post('/api/users/request-password-reset', { data: { email: user.email } })
  expect(asked.status()).toBe(200)
  const message = await waitForEmail(user.email, { subject: /reset/i, timeoutMs: 30_000 })
  const link = new URL(extractLink(message, '/reset-password?token='))

  const release = await openWithScriptsHeld(page, `${link.pathname}${link.search}`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Verifying reset token...')
  await expect(page.locator('main input')).toHaveCount(0)

  release()
  await page.getByLabel('New password', { exact: true }).fill(`${PASSWORD}-new`)
  await page.getByLabel('Confirm new password').fill(`${PASSWORD}-new`)
  await submit(page, 'Reset password').click()
  await expect(page.getByRole('heading', { level: 1, name: 'Password Reset Successful' })).toBeVisible()
})

test('/contact: a message written before the app starts is sent as written', async ({ page }) => {
  const sender = `Early Writer ${Date.now()}`
  const since = new Date()
  const release = await openWithScriptsHeld(page, '/contact')
  await page.getByLabel('Name').fill(sender)
  await page.getByLabel('Email', { exact: true }).fill('early@example.com')
  await page.getByLabel('Subject').selectOption('feature')
  await page.getByLabel('Message').fill('Typed on a slow phone before the page was ready.')

  release()
  await submit(page, 'Send message').click()
  await expect(page.getByRole('heading', { name: 'Message sent' })).toBeVisible()
  const mail = await waitForEmail('contact@circles.test', {
    subject: new RegExp(sender),
    since,
    timeoutMs: 30_000,
  })
  expect(mail.subject).toBe(`[Contact] feature from ${sender}`)
})

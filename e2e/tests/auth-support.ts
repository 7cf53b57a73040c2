// Helpers for the auth-*.spec.ts suites: unique addresses, accounts made through the real API, and the
// sign-in form's steps. Not a spec itself (Playwright only runs *.spec.ts).
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { APIRequestContext, Page } from '@playwright/test'
import { expect, screenshot, type Axe } from '../support/fixtures'
import { extractLink, waitForEmail } from '../support/mail'

export const PASSWORD = 'e2e-Correct-horse-7'

export function uniqueEmail(label: string): string {
  return `e2e-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
}

/** An account that still has to verify its email (what a fresh registration leaves behind). */
export async function createUnverifiedUser(request: APIRequestContext, label: string, name = 'Ada Lovelace') {
  const email = uniqueEmail(label)
  const response = await request.post('/api/users/register', {
    data: { name, email, password: PASSWORD, language: 'en' },
  })
  expect(response.status(), await response.text()).toBe(201)
  return { email, name, password: PASSWORD }
}

/** The token of the newest verification email to this address. */
export async function verificationLink(email: string): Promise<string> {
  const message = await waitForEmail(email, { subject: /verify|bestätige/i, timeoutMs: 30_000 })
  return extractLink(message, '/verify?token=')
}

/** A verified account, ready to sign in. */
export async function createVerifiedUser(request: APIRequestContext, label: string, name = 'Grace Hopper') {
  const user = await createUnverifiedUser(request, label, name)
  const token = new URL(await verificationLink(user.email)).searchParams.get('token') ?? ''
  const verified = await request.get(`/api/users/verify/${encodeURIComponent(token)}`)
  expect(verified.status(), await verified.text()).toBe(200)
  return user
}

/**
 * Opens a page with a form and waits until the app runs it. The sign-in pages are prerendered: their
 * submit button stays disabled until React has taken over, so typing never races the app's start.
 */
export async function openForm(page: Page, path: string) {
  await page.goto(path)
  await expect(page.getByRole('main').locator('button[type="submit"]').first()).toBeEnabled()
}

/** Email step, then password mode, then sign in. */
export async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Continue with password' }).click()
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
}

/** Sonner's toast of one type ("error", "warning", …) containing the text. */
export function toast(page: Page, type: 'success' | 'info' | 'warning' | 'error', text: string | RegExp) {
  return page.locator(`[data-sonner-toast][data-type="${type}"]`).filter({ hasText: text })
}

/**
 * Runs the page in German from the first byte: the stored choice for the app, and its mirror in the
 * `lang` cookie, by which the server picks the prerendered page's language.
 */
export async function useGerman(page: Page) {
  await page.addInitScript(() => window.localStorage.setItem('language', 'de'))
  await page.context().addCookies([{ name: 'lang', value: 'de', url: process.env.E2E_BASE_URL ?? '' }])
}

/**
 * The cookie-consent dialog (vanilla-cookieconsent, owned by the consent work, not these screens) shows
 * on every first visit; these suites judge the sign-in screens, so axe leaves it out.
 */
const CONSENT_DIALOG = '#cc-main'

export async function expectAccessible(page: Page, axe: Axe) {
  // A toast fading in or out has a see-through text colour; axe would measure that frame, not the toast.
  await expect
    .poll(() =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll('[data-sonner-toast]')).every(
          (toast) =>
            toast.getAttribute('data-removed') !== 'true' &&
            (toast.getAttribute('data-visible') !== 'true' || getComputedStyle(toast).opacity === '1'),
        ),
      ),
    )
    .toBe(true)
  await axe.expectNoA11yViolations(page, { exclude: [CONSENT_DIALOG] })
}

/** A screenshot of the screen itself, without the consent dialog over it. */
export async function screenshotScreen(page: Page, name: string) {
  await page.evaluate((selector) => {
    const dialog = document.querySelector<HTMLElement>(selector)
    if (dialog) dialog.style.display = 'none'
  }, CONSENT_DIALOG)
  const path = await screenshot(page, name)
  // Optional second copy, for looking at them while another run empties test-results.
  const copyTo = process.env.AUTH_SCREENS_DIR
  if (copyTo) {
    mkdirSync(copyTo, { recursive: true })
    copyFileSync(path, join(copyTo, basename(path)))
  }
  return path
}

type Json = string | { [key: string]: Json }

function leaves(value: Json, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  if (typeof value === 'string') out.set(prefix, value)
  else
    for (const [key, child] of Object.entries(value)) {
      for (const [path, text] of leaves(child, prefix ? `${prefix}.${key}` : key)) out.set(path, text)
    }
  return out
}

function readLocale(language: 'en' | 'de', namespace: string): Map<string, string> {
  const file = new URL(`../../apps/web/src/locales/${language}/${namespace}.json`, import.meta.url)
  return leaves(JSON.parse(readFileSync(file, 'utf8')) as Json)
}

/** English texts of a namespace whose German differs (so finding one on a German page is a leak). */
export function englishOnlyTexts(namespace: string, under: string[] = []): string[] {
  const en = readLocale('en', namespace)
  const de = readLocale('de', namespace)
  return [...en]
    .filter(([path]) => under.length === 0 || under.some((prefix) => path.startsWith(prefix)))
    .filter(([path, text]) => de.get(path) !== text && !text.includes('{{'))
    .map(([, text]) => text)
}

import type { Page } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import {
  englishOnlyTexts,
  expectAccessible,
  openForm,
  screenshotScreen,
  uniqueEmail,
  useGerman,
} from './auth-support'

// Every sign-in screen in both languages at desktop and phone width: one h1, a title, no axe
// violations, nothing wider than the phone, and a screenshot to look at.

interface Screen {
  name: string
  path: string
  /** Brings the page into the state to capture (after it loaded). */
  prepare?: (page: Page) => Promise<void>
  heading: { en: string; de: string }
}

const SCREENS: Screen[] = [
  { name: 'login', path: '/login', heading: { en: 'Log in to Circles', de: 'Bei Circles anmelden' } },
  {
    name: 'login-password',
    path: '/login',
    heading: { en: 'Log in to Circles', de: 'Bei Circles anmelden' },
    prepare: async (page) => {
      await expect(page.getByRole('main').locator('button[type="submit"]')).toBeEnabled()
      await page.getByRole('textbox').first().fill('ada@example.com')
      await page
        .getByRole('button')
        .filter({ hasText: /Continue with password|Weiter mit Passwort/ })
        .click()
      await expect(page.locator('input[autocomplete="current-password"]')).toBeFocused()
    },
  },
  {
    name: 'login-invitation',
    path: `/login?returnUrl=${encodeURIComponent(`/join?token=${'ab'.repeat(20)}`)}`,
    heading: { en: 'Log in to Circles', de: 'Bei Circles anmelden' },
  },
  { name: 'register', path: '/register', heading: { en: 'Create your account', de: 'Erstelle dein Konto' } },
  {
    name: 'register-invited',
    path: `/register?token=${'ab'.repeat(20)}&email=invited%40example.com`,
    heading: { en: 'Create your account', de: 'Erstelle dein Konto' },
  },
  {
    name: 'forgot',
    path: '/forgot-password',
    heading: { en: 'Forgot your password?', de: 'Passwort vergessen?' },
  },
  {
    name: 'reset-invalid',
    path: '/reset-password?token=nope',
    heading: { en: 'Invalid Reset Link', de: 'Ungültiger Link' },
  },
  {
    name: 'verify-error',
    path: '/verify?token=nope',
    heading: { en: "We couldn't verify your email", de: 'Wir konnten deine E-Mail-Adresse nicht bestätigen' },
  },
  {
    name: 'resend',
    path: '/resend-verification',
    heading: { en: 'Resend verification email', de: 'Bestätigungs-E-Mail erneut senden' },
  },
]

for (const language of ['en', 'de'] as const) {
  test.describe(`sign-in screens in ${language.toUpperCase()}`, () => {
    test.beforeEach(async ({ page }) => {
      if (language === 'de') await useGerman(page)
    })

    for (const screen of SCREENS) {
      test(`${screen.name}: accessible at 1280 and 390 px`, async ({ page, axe }) => {
        await page.setViewportSize({ width: 1280, height: 900 })
        await page.goto(screen.path)
        const heading = page.getByRole('heading', { level: 1 })
        await expect(heading).toHaveText(screen.heading[language])
        await expect(heading).toHaveCount(1)
        await expect(page.locator('html')).toHaveAttribute('lang', language)
        await expect(page).toHaveTitle(/· Circles$/)
        await expect(page.getByRole('main')).toBeVisible()
        await screen.prepare?.(page)
        await expectAccessible(page, axe)
        await screenshotScreen(page, `auth-${screen.name}-${language}-1280`)

        await page.setViewportSize({ width: 390, height: 844 })
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
        await expectAccessible(page, axe)
        await screenshotScreen(page, `auth-${screen.name}-${language}-390`)

        await page.setViewportSize({ width: 360, height: 740 })
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
      })
    }
  })
}

test.describe('German login', () => {
  test.beforeEach(async ({ page }) => {
    await useGerman(page)
  })

  test('has no English left, in every mode and in its messages', async ({ page }) => {
    const english = englishOnlyTexts('auth', ['layout.', 'fields.', 'login.', 'passkey.emailRequired'])
    const expectNoEnglish = async () => {
      const text = await page.locator('body').innerText()
      // Whole words only: "or" hides inside many German words ("vorher"), but alone it is English.
      const escape = (phrase: string) => phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      const leaked = english.filter((phrase) => new RegExp(`(^|\\W)${escape(phrase)}(\\W|$)`).test(text))
      expect(leaked, 'English texts on the German login page').toEqual([])
      for (const phrase of ['Log in', 'Email', 'Password', 'Cancel', 'Remember me']) {
        expect(text).not.toContain(phrase)
      }
    }

    await openForm(page, '/login')
    await expect(page.getByRole('heading', { level: 1, name: 'Bei Circles anmelden' })).toBeVisible()
    await expect(page).toHaveTitle('Anmelden · Circles')
    await expectNoEnglish()

    await page.getByRole('button', { name: 'Weiter mit Passwort' }).click()
    await expect(page.getByText('Bitte gib deine E-Mail-Adresse ein').first()).toBeVisible()
    await page.getByLabel('E-Mail-Adresse').fill('kaputt')
    await page.getByRole('button', { name: 'Weiter mit Passwort' }).click()
    await expect(page.getByText('Bitte gib eine gültige E-Mail-Adresse ein').first()).toBeVisible()
    await expectNoEnglish()

    await page.getByLabel('E-Mail-Adresse').fill(uniqueEmail('de'))
    await page.getByRole('button', { name: 'Weiter mit Passwort' }).click()
    await expect(page.getByLabel('Passwort', { exact: true })).toBeFocused()
    await expect(page.getByRole('button', { name: 'Passwort anzeigen' })).toBeVisible()
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
    await expect(page.getByText('Bitte fülle alle Pflichtfelder aus').first()).toBeVisible()
    await expectNoEnglish()

    await page.getByLabel('Passwort', { exact: true }).fill('falsches-passwort')
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click()
    await expect(page.getByText('E-Mail-Adresse oder Passwort ist falsch').first()).toBeVisible()
    await expectNoEnglish()
  })

  test('the language switch changes the page at once', async ({ page }) => {
    await openForm(page, '/login')
    await page.getByRole('button', { name: 'en', exact: true }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Log in to Circles' })).toBeVisible()
    await expect(page).toHaveTitle('Log in · Circles')
  })
})

test.describe('dark mode', () => {
  test('login and register follow the system setting with enough contrast', async ({ page, axe }) => {
    await page.emulateMedia({ colorScheme: 'dark' })
    for (const path of ['/login', '/register']) {
      await openForm(page, path)
      await page.getByRole('main').locator('button[type="submit"]').first().click()
      await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible()
      // The first error toast comes with sonner's code (loaded on the first toast): checked once it is up.
      await expect(page.locator('[data-sonner-toast][data-type="error"]').first()).toBeVisible()
      await expectAccessible(page, axe)
      await screenshotScreen(page, `auth${path.replace('/', '-')}-invalid-dark-1280`)
    }
  })
})

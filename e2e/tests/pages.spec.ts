// The static text pages /about, /privacy and /terms (spec 000 §2): last-updated date, the contact email
// from the server's runtime config, the under-13 and 30-day clauses, in English and German.
import type { Page } from '@playwright/test'
import { expect, screenshot, test } from '../support/fixtures'

/** Set by support/server.ts for the e2e server, and put into every page as runtime config. */
const CONTACT_EMAIL = 'contact@circles.test'
/** The cookie-consent dialog belongs to the consent work; it is left out of these checks and pictures. */
const CONSENT_DIALOG = '#cc-main'

test.beforeEach(async ({ page }) => {
  await page.addInitScript((selector) => {
    document.addEventListener('DOMContentLoaded', () => {
      const style = document.createElement('style')
      style.textContent = `${selector} { display: none !important; }`
      document.head.append(style)
    })
  }, CONSENT_DIALOG)
})

async function useGerman(page: Page) {
  await page.addInitScript(() => window.localStorage.setItem('language', 'de'))
  await page.context().addCookies([{ name: 'lang', value: 'de', url: process.env.E2E_BASE_URL ?? '' }])
}

async function expectNoHorizontalScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
}

const LEGAL = {
  en: {
    lastUpdated: 'Last updated: May 20, 2023',
    under13: /not directed at children under 13/,
    notice: /at least 30 days before they take effect/,
    privacy: { h1: 'Privacy policy', title: 'Privacy policy · Circles' },
    terms: { h1: 'Terms of service', title: 'Terms of service · Circles' },
  },
  de: {
    lastUpdated: 'Zuletzt aktualisiert: 20. Mai 2023',
    under13: /nicht an Kinder unter 13 Jahren/,
    notice: /mindestens 30 Tage, bevor sie wirksam werden/,
    privacy: { h1: 'Datenschutzerklärung', title: 'Datenschutzerklärung · Circles' },
    terms: { h1: 'Nutzungsbedingungen', title: 'Nutzungsbedingungen · Circles' },
  },
} as const

for (const language of ['en', 'de'] as const) {
  const text = LEGAL[language]

  for (const doc of ['privacy', 'terms'] as const) {
    test(`/${doc} (${language}): date, contact email, under-13 and 30-day clauses; no axe violations`, async ({
      page,
      axe,
    }) => {
      if (language === 'de') await useGerman(page)
      await page.setViewportSize({ width: 1280, height: 800 })
      await page.goto(`/${doc}`)

      await expect(page.getByRole('heading', { level: 1 })).toHaveText(text[doc].h1)
      await expect(page).toHaveTitle(text[doc].title)
      await expect(page.locator('html')).toHaveAttribute('lang', language)
      const main = page.locator('main#main-content')
      await expect(main.getByText(text.lastUpdated, { exact: true })).toBeVisible()
      await expect(main.locator('time')).toHaveAttribute('datetime', '2023-05-20')
      const mail = main.getByRole('link', { name: CONTACT_EMAIL }).first()
      await expect(mail).toBeVisible()
      await expect(mail).toHaveAttribute('href', `mailto:${CONTACT_EMAIL}`)
      await expect(main).toContainText(text.under13)
      await expect(main).toContainText(text.notice)
      await expect(main).not.toContainText('{email}')

      // The table of contents leads to each section.
      const toc = page.getByRole('navigation', {
        name: language === 'en' ? 'On this page' : 'Auf dieser Seite',
      })
      const entries = toc.getByRole('link')
      expect(await entries.count()).toBeGreaterThan(8)
      await entries.last().click()
      await expect(page.locator(`${await entries.last().getAttribute('href')} h2`)).toBeInViewport()

      await page.evaluate(() => window.scrollTo(0, 0))
      if (doc === 'privacy') await screenshot(page, `${doc}-${language}-1280`)
      await axe.expectNoA11yViolations(page, { exclude: [CONSENT_DIALOG] })

      await page.setViewportSize({ width: 360, height: 740 })
      await expectNoHorizontalScroll(page, 360)
      await page.setViewportSize({ width: 390, height: 844 })
      if (doc === 'privacy') await screenshot(page, `${doc}-${language}-390`)
      await axe.expectNoA11yViolations(page, { exclude: [CONSENT_DIALOG] })
    })
  }

  test(`/about (${language}): one h1, mission, ledger, team and Beta; no axe violations`, async ({
    page,
    axe,
  }) => {
    if (language === 'de') await useGerman(page)
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/about')
    const headings =
      language === 'en'
        ? ['Our mission', 'How the ledger builds trust', 'A small team in Berlin', 'Circles is in Beta']
        : [
            'Unsere Mission',
            'Wie das Protokoll Vertrauen schafft',
            'Ein kleines Team in Berlin',
            'Circles ist in der Beta',
          ]
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
    await expect(page).toHaveTitle(language === 'en' ? 'About · Circles' : 'Über uns · Circles')
    for (const heading of headings) {
      await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible()
    }
    await screenshot(page, `about-${language}-1280`)
    await axe.expectNoA11yViolations(page, { exclude: [CONSENT_DIALOG] })

    await page.setViewportSize({ width: 390, height: 844 })
    await expectNoHorizontalScroll(page, 390)
    await screenshot(page, `about-${language}-390`)
    await axe.expectNoA11yViolations(page, { exclude: [CONSENT_DIALOG] })
  })
}

test('the public header: home link, language switch that persists, log in and get started', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/terms')
  const banner = page.getByRole('banner')
  await expect(banner.getByRole('link', { name: 'Circles home' })).toHaveAttribute('href', '/')
  await expect(banner.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login')
  await expect(banner.getByRole('link', { name: 'Get started' })).toHaveAttribute('href', '/register')

  await banner.getByRole('group', { name: 'Language' }).getByRole('button', { name: /^de$/i }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nutzungsbedingungen')
  await expect(page.getByText(LEGAL.de.lastUpdated, { exact: true })).toBeVisible()
  expect((await context.cookies()).find((cookie) => cookie.name === 'lang')?.value).toBe('de')
  await page.reload()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Nutzungsbedingungen')

  await page.getByRole('contentinfo').getByRole('link', { name: 'Datenschutz' }).click()
  await expect(page).toHaveURL(/\/privacy$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Datenschutzerklärung')

  await page.getByRole('banner').getByRole('link', { name: 'Circles-Startseite' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Wisse immer, wer was hat.')
})

test('the skip link jumps to the main content', async ({ page }) => {
  await page.goto('/privacy')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to content' })
  await expect(skip).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/#main-content$/)
  await expect(page.locator('main#main-content')).toBeFocused()
})

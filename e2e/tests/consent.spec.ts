// Cookie consent (spec 000 §2-§4, §9): the dialog on a first visit, reject and accept, the
// preferences with links to the privacy policy and terms, in English and German.
import type { Page } from '@playwright/test'
import { expect, screenshot, test } from '../support/fixtures'
import { consentBox, consentCookie } from './consent-support'

const DAY_SECONDS = 24 * 60 * 60
const CONSENT_DAYS = 182

interface ConsentRecord {
  necessary: boolean
  analytics: boolean
  marketing: boolean
  timestamp: string
}

const preferences = (page: Page) => page.locator('#cc-main .pm')

async function consentRecord(page: Page): Promise<ConsentRecord | null> {
  return page.evaluate(() => {
    const raw = localStorage.getItem('cookieConsent')
    return raw ? (JSON.parse(raw) as ConsentRecord) : null
  })
}

// The first-visit dialog is the subject here: start undecided.
test.use({ consentDecided: false })

test.describe('in English', () => {
  test('the dialog asks on the first visit; reject keeps analytics off for 182 days', async ({
    page,
    context,
    axe,
    baseURL,
  }) => {
    // Something an analytics service left behind earlier: a no must remove it.
    await context.addCookies([{ name: '_ga', value: 'GA1.1.1.1', url: baseURL! }])
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/about')
    await expect(consentBox(page)).toBeVisible()
    await expect(consentBox(page)).toContainText('Cookies on Circles')
    await expect(consentBox(page).getByRole('link', { name: 'Privacy policy' })).toHaveAttribute(
      'href',
      '/privacy',
    )
    await expect(consentBox(page).getByRole('link', { name: 'Terms of service' })).toHaveAttribute(
      'href',
      '/terms',
    )
    await screenshot(page, 'consent-banner-en-1280')
    await axe.expectNoA11yViolations(page)
    expect(await consentRecord(page)).toBeNull()

    await consentBox(page).getByRole('button', { name: 'Reject all' }).click()
    await expect(consentBox(page)).toBeHidden()
    const cookie = await consentCookie(context)
    expect(cookie).toBeDefined()
    const days = (cookie!.expires - Date.now() / 1000) / DAY_SECONDS
    expect(days).toBeGreaterThan(CONSENT_DAYS - 1)
    expect(days).toBeLessThanOrEqual(CONSENT_DAYS + 1)
    expect(JSON.parse(decodeURIComponent(cookie!.value))).toMatchObject({ categories: ['necessary'] })
    expect(await consentRecord(page)).toMatchObject({ necessary: true, analytics: false, marketing: false })
    expect((await context.cookies()).some((c) => c.name === '_ga')).toBe(false)

    // The choice holds on the next page load.
    await page.reload()
    await expect(page.locator('main').first()).toBeVisible()
    await expect(consentBox(page)).toBeHidden()
  })

  test('accept all turns analytics on; the footer reopens the preferences to change it', async ({
    page,
    context,
    axe,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/no/such/page')
    await consentBox(page).getByRole('button', { name: 'Accept all' }).click()
    await expect(consentBox(page)).toBeHidden()
    expect(JSON.parse(decodeURIComponent((await consentCookie(context))!.value))).toMatchObject({
      categories: ['necessary', 'analytics'],
    })
    const accepted = await consentRecord(page)
    expect(accepted).toMatchObject({ necessary: true, analytics: true, marketing: false })
    expect(Date.now() - Date.parse(accepted!.timestamp)).toBeLessThan(60_000)

    await page.getByRole('contentinfo').getByRole('button', { name: 'Cookie preferences' }).click()
    await expect(preferences(page)).toBeVisible()
    await expect(preferences(page).getByRole('link', { name: 'Privacy policy' })).toHaveAttribute(
      'href',
      '/privacy',
    )
    await expect(preferences(page).getByRole('link', { name: 'Terms of service' })).toHaveAttribute(
      'href',
      '/terms',
    )
    // Necessary is on and cannot be switched off; analytics shows the earlier yes.
    const necessary = preferences(page).locator('input[value="necessary"]')
    await expect(necessary).toBeChecked()
    await expect(necessary).toBeDisabled()
    await expect(preferences(page).locator('input[value="analytics"]')).toBeChecked()
    await screenshot(page, 'consent-preferences-en-1280')
    await axe.expectNoA11yViolations(page)

    await preferences(page).getByRole('button', { name: 'Reject all' }).click()
    await expect(preferences(page)).toBeHidden()
    await expect.poll(async () => (await consentRecord(page))?.analytics).toBe(false)
  })

  test('the landing page footer event opens the preferences too', async ({ page }) => {
    await page.goto('/no/such/page')
    await expect(consentBox(page)).toBeVisible()
    await page.evaluate(() => window.dispatchEvent(new CustomEvent('circles:cookie-preferences')))
    await expect(preferences(page)).toBeVisible()
    await preferences(page).getByRole('button', { name: 'Save preferences' }).click()
    await expect(preferences(page)).toBeHidden()
    expect(await consentRecord(page)).toMatchObject({ analytics: false })
  })
})

test.describe('in German', () => {
  test.use({ locale: 'de-DE' })

  test('the dialog and the preferences speak German, on a phone too', async ({ page, context, axe }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/no/such/page')
    await expect(consentBox(page)).toBeVisible()
    await expect(consentBox(page)).toContainText('Cookies bei Circles')
    await expect(consentBox(page).getByRole('link', { name: 'Datenschutzerklärung' })).toHaveAttribute(
      'href',
      '/privacy',
    )
    await expect(consentBox(page).getByRole('link', { name: 'Nutzungsbedingungen' })).toHaveAttribute(
      'href',
      '/terms',
    )
    await screenshot(page, 'consent-banner-de-390')
    await axe.expectNoA11yViolations(page)

    await consentBox(page).getByRole('button', { name: 'Einstellungen verwalten' }).click()
    await expect(preferences(page)).toBeVisible()
    await expect(preferences(page)).toContainText('Cookie-Einstellungen')
    await expect(preferences(page).getByRole('link', { name: 'Datenschutzerklärung' })).toHaveAttribute(
      'href',
      '/privacy',
    )
    await screenshot(page, 'consent-preferences-de-390')
    await axe.expectNoA11yViolations(page)

    await preferences(page).getByRole('button', { name: 'Alle ablehnen' }).click()
    await expect(preferences(page)).toBeHidden()
    expect(await consentCookie(context)).toBeDefined()
    expect(await consentRecord(page)).toMatchObject({ analytics: false })
  })

  test('switching the app to English switches the open dialog', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/no/such/page')
    await expect(consentBox(page)).toContainText('Cookies bei Circles')
    await page.getByRole('group', { name: 'Sprache' }).getByRole('button', { name: 'en' }).click()
    await expect(consentBox(page)).toContainText('Cookies on Circles')
    await expect(consentBox(page).getByRole('button', { name: 'Reject all' })).toBeVisible()
  })

  test('German at 1280 px', async ({ page, axe }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/no/such/page')
    await expect(consentBox(page)).toContainText('Cookies bei Circles')
    await screenshot(page, 'consent-banner-de-1280')
    await axe.expectNoA11yViolations(page)
  })
})

test('English on a phone', async ({ page, axe }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/no/such/page')
  await expect(consentBox(page)).toContainText('Cookies on Circles')
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await screenshot(page, 'consent-banner-en-390')
  await axe.expectNoA11yViolations(page)
})

test.describe('in dark mode', () => {
  test.use({ colorScheme: 'dark' })

  test('the dialog and the preferences keep AA contrast', async ({ page, axe }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/no/such/page')
    await expect(consentBox(page)).toBeVisible()
    await screenshot(page, 'consent-banner-en-1280-dark')
    await axe.expectNoA11yViolations(page)
    await consentBox(page).getByRole('button', { name: 'Manage preferences' }).click()
    await expect(preferences(page)).toBeVisible()
    await screenshot(page, 'consent-preferences-en-1280-dark')
    await axe.expectNoA11yViolations(page)
  })
})

test.describe('a visitor who has chosen', () => {
  test.use({ consentDecided: true })

  test('the app loads no consent code until the footer asks for the preferences (issue 27)', async ({
    page,
  }) => {
    const consentLibrary = /\/assets\/consent-[A-Za-z0-9_-]{8}\.js$/
    const scripts: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url())
    })
    await page.goto('/no/such/page')
    const footerButton = page.getByRole('contentinfo').getByRole('button', { name: 'Cookie preferences' })
    await expect(footerButton).toBeVisible()
    await page.waitForLoadState('networkidle')
    expect(scripts.filter((url) => consentLibrary.test(url))).toEqual([])
    await expect(consentBox(page)).toBeHidden()

    await footerButton.click()
    await expect(preferences(page)).toBeVisible()
    expect(scripts.some((url) => consentLibrary.test(url))).toBe(true)
    // The earlier choice is what the preferences show.
    await expect(preferences(page).locator('input[value="analytics"]')).not.toBeChecked()
    await preferences(page).getByRole('button', { name: 'Close' }).click()
    await expect(preferences(page)).toBeHidden()
    // Asked again, it opens again (now through the library's own listener).
    await footerButton.click()
    await expect(preferences(page)).toBeVisible()
  })
})

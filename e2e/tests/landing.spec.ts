// The landing page `/` (spec 000 §1-2): sections and anchors, the exact plans, the FAQ, the header's
// scroll style and mobile menu, the language switch, and where its buttons lead. The same checks hold
// for the prerendered page with its small script and for the SPA's home route.
import type { Page } from '@playwright/test'
import { expect, screenshot, test } from '../support/fixtures'

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

const SECTIONS = {
  en: {
    h1: 'Always know who has what.',
    nav: ['How it works', 'Features', 'Pricing', 'FAQ'],
    headings: {
      'how-it-works': 'Up and running in three steps',
      features: "Everything a trusted group needs – nothing it doesn't",
      pricing: 'Simple, honest pricing',
      faq: 'Questions, answered',
    },
    comingSoon: 'Coming Soon',
    personal: {
      name: 'Personal',
      price: 'Free forever',
      features: [
        '2 circles',
        '11 members',
        '10 items',
        'Blockchain-style records',
        'Community support',
        'Basic security',
      ],
    },
    enterprise: {
      name: 'Enterprise',
      price: 'Custom pricing',
      features: [
        'Unlimited circles',
        'Unlimited members',
        'Unlimited items',
        '24/7 premium support',
        'Advanced security',
        'Custom integrations',
        'A dedicated account manager',
      ],
    },
    menu: 'Menu',
    getStarted: 'Get started',
    language: 'Language',
  },
  de: {
    h1: 'Wisse immer, wer was hat.',
    nav: ["So funktioniert's", 'Funktionen', 'Preise', 'FAQ'],
    headings: {
      'how-it-works': 'In drei Schritten startklar',
      features: 'Alles, was eine vertraute Gruppe braucht – und nichts darüber hinaus',
      pricing: 'Einfache, ehrliche Preise',
      faq: 'Häufige Fragen',
    },
    comingSoon: 'Bald verfügbar',
    personal: {
      name: 'Personal',
      price: 'Für immer kostenlos',
      features: [
        '2 Kreise',
        '11 Mitglieder',
        '10 Gegenstände',
        'Einträge nach Blockchain-Prinzip',
        'Hilfe aus der Community',
        'Grundlegende Sicherheit',
      ],
    },
    enterprise: {
      name: 'Enterprise',
      price: 'Individueller Preis',
      features: [
        'Unbegrenzt viele Kreise',
        'Unbegrenzt viele Mitglieder',
        'Unbegrenzt viele Gegenstände',
        'Premium-Support rund um die Uhr (24/7)',
        'Erweiterte Sicherheit',
        'Individuelle Integrationen',
        'Eine feste Ansprechperson für dein Konto',
      ],
    },
    menu: 'Menü',
    getStarted: 'Jetzt starten',
    language: 'Sprache',
  },
} as const

type Language = keyof typeof SECTIONS

/** German from the first byte: the stored choice for the app and the `lang` cookie for the server. */
async function useGerman(page: Page) {
  await page.addInitScript(() => window.localStorage.setItem('language', 'de'))
  await page.context().addCookies([{ name: 'lang', value: 'de', url: process.env.E2E_BASE_URL ?? '' }])
}

async function openLanding(page: Page, language: Language, width = 1280) {
  await page.setViewportSize({ width, height: width > 500 ? 800 : 844 })
  if (language === 'de') await useGerman(page)
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(SECTIONS[language].h1)
}

const header = (page: Page) => page.locator('[data-landing-header]')

async function expectNoHorizontalScroll(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
}

for (const language of ['en', 'de'] as const) {
  const text = SECTIONS[language]

  test.describe(`landing page (${language})`, () => {
    test('sections, anchors and header links; screenshots; no axe violations', async ({ page, axe }) => {
      await openLanding(page, language)
      await expect(page).toHaveTitle(/Circles/)
      await expect(page.locator('html')).toHaveAttribute('lang', language)
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
      await expect(page.locator('main#main-content')).toHaveCount(1)

      const nav = page.getByRole('navigation', { name: language === 'en' ? 'Main' : 'Hauptnavigation' })
      const links = nav.getByRole('link')
      await expect(links).toHaveText([...text.nav])
      const hrefs = await links.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')))
      expect(hrefs).toEqual(['#how-it-works', '#features', '#pricing', '#faq'])
      for (const [id, heading] of Object.entries(text.headings)) {
        await expect(page.locator(`section#${id}`).getByRole('heading', { level: 2 })).toHaveText(heading)
      }
      await expect(page.locator('#features').getByText(text.comingSoon, { exact: true })).toBeVisible()

      // An anchor link scrolls its section into view.
      await nav.getByRole('link', { name: text.nav[2] }).click()
      await expect(page).toHaveURL(/#pricing$/)
      await expect(page.locator('#pricing-heading')).toBeInViewport()

      await page.evaluate(() => window.scrollTo(0, 0))
      await screenshot(page, `landing-${language}-1280`)
      await axe.expectNoA11yViolations(page, { exclude: [CONSENT_DIALOG] })
    })

    test('pricing shows exactly the two plans', async ({ page }) => {
      await openLanding(page, language)
      const pricing = page.locator('#pricing')
      await expect(pricing.getByRole('article')).toHaveCount(2)
      for (const plan of [text.personal, text.enterprise]) {
        const card = pricing.getByRole('article', { name: plan.name })
        await expect(card.getByText(plan.price, { exact: true })).toBeVisible()
        await expect(card.getByRole('listitem')).toHaveText([...plan.features])
      }
    })

    test(`the FAQ has exactly 4 entries that open and close`, async ({ page }) => {
      await openLanding(page, language)
      const entries = page.locator('#faq details')
      await expect(entries).toHaveCount(4)
      const first = entries.first()
      const answer = first.locator('p')
      await expect(answer).toBeHidden()

      await first.locator('summary').click()
      await expect(first).toHaveAttribute('open', '')
      await expect(answer).toBeVisible()
      await first.locator('summary').click()
      await expect(first).not.toHaveAttribute('open')
      await expect(answer).toBeHidden()

      // And from the keyboard.
      const last = entries.last()
      await last.locator('summary').focus()
      await page.keyboard.press('Enter')
      await expect(last).toHaveAttribute('open', '')
    })

    test('mobile menu at 390 px: opens, closes with Escape and after following a link', async ({
      page,
      axe,
    }) => {
      await openLanding(page, language, 390)
      await expectNoHorizontalScroll(page, 390)
      await expect(page.locator('[data-landing-header] nav').first()).toBeHidden()
      await screenshot(page, `landing-${language}-390`)
      await axe.expectNoA11yViolations(page, { exclude: [CONSENT_DIALOG] })

      const toggle = page.getByRole('button', { name: text.menu, exact: true })
      const menu = page.locator('#landing-menu')
      await expect(toggle).toHaveAttribute('aria-expanded', 'false')
      await expect(toggle).toHaveAttribute('aria-controls', 'landing-menu')
      await expect(menu).toBeHidden()

      await toggle.click()
      await expect(toggle).toHaveAttribute('aria-expanded', 'true')
      await expect(menu).toBeVisible()
      await expect(menu.getByRole('link').first()).toBeFocused()
      await expect(menu.getByRole('link', { name: text.getStarted })).toBeVisible()
      await expect(menu.getByRole('group', { name: text.language })).toBeVisible()
      await screenshot(page, `landing-${language}-390-menu`)
      await axe.expectNoA11yViolations(page, { exclude: [CONSENT_DIALOG] })

      await page.keyboard.press('Escape')
      await expect(menu).toBeHidden()
      await expect(toggle).toHaveAttribute('aria-expanded', 'false')
      await expect(toggle).toBeFocused()

      await toggle.click()
      await menu.getByRole('link', { name: 'FAQ' }).click()
      await expect(menu).toBeHidden()
      await expect(page).toHaveURL(/#faq$/)
      await expect(page.locator('#faq-heading')).toBeInViewport()
    })

    test('the header changes style once scrolled past 64 px', async ({ page }) => {
      await openLanding(page, language)
      const shadow = () => header(page).evaluate((element) => getComputedStyle(element).boxShadow)
      await expect(header(page)).toHaveAttribute('data-scrolled', 'false')
      expect(await shadow()).toBe('none')

      await page.evaluate(() => window.scrollTo({ top: 40, behavior: 'instant' }))
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      )
      await expect(header(page)).toHaveAttribute('data-scrolled', 'false')

      await page.evaluate(() => window.scrollTo({ top: 200, behavior: 'instant' }))
      await expect(header(page)).toHaveAttribute('data-scrolled', 'true')
      await expect.poll(shadow).not.toBe('none')
      await screenshot(page, `landing-${language}-1280-scrolled`)

      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }))
      await expect(header(page)).toHaveAttribute('data-scrolled', 'false')
    })
  })
}

test.describe('landing page actions', () => {
  test('the language switch changes the page and the choice survives reloads', async ({ page, context }) => {
    await openLanding(page, 'en')
    const group = header(page).getByRole('group', { name: 'Language' })
    await expect(group.getByRole('button', { name: /^en$/i })).toHaveAttribute('aria-pressed', 'true')

    await group.getByRole('button', { name: /^de$/i }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(SECTIONS.de.h1)
    await expect(page.locator('html')).toHaveAttribute('lang', 'de')
    const germanGroup = header(page).getByRole('group', { name: 'Sprache' })
    await expect(germanGroup.getByRole('button', { name: /^de$/i })).toHaveAttribute('aria-pressed', 'true')
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('de')
    expect((await context.cookies()).find((cookie) => cookie.name === 'lang')?.value).toBe('de')

    await page.reload()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(SECTIONS.de.h1)

    // And back, from the mobile menu.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.getByRole('button', { name: SECTIONS.de.menu, exact: true }).click()
    await page.locator('#landing-menu').getByRole('button', { name: /^en$/i }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(SECTIONS.en.h1)
    await page.reload()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(SECTIONS.en.h1)
  })

  test('Get started leads to /register', async ({ page }) => {
    await openLanding(page, 'en')
    await header(page).getByRole('link', { name: 'Get started', exact: true }).click()
    await expect(page).toHaveURL(/\/register$/)
  })

  test('the hero call to action leads to /register too, and Log in to /login', async ({ page }) => {
    await openLanding(page, 'en')
    await expect(page.getByRole('link', { name: /Get started – it's free/ }).first()).toHaveAttribute(
      'href',
      '/register',
    )
    await header(page).getByRole('link', { name: 'Log in', exact: true }).click()
    await expect(page).toHaveURL(/\/login$/)
  })

  test('the Enterprise button leads to /contact', async ({ page }) => {
    await openLanding(page, 'en')
    await page.locator('#pricing').getByRole('article', { name: 'Enterprise' }).getByRole('link').click()
    await expect(page).toHaveURL(/\/contact$/)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Get in touch')
  })

  test('the footer links to the company and legal pages and asks for cookie preferences and the app', async ({
    page,
  }) => {
    await openLanding(page, 'en')
    const footer = page.getByRole('contentinfo')
    for (const [name, href] of [
      ['About', '/about'],
      ['Contact', '/contact'],
      ['Privacy', '/privacy'],
      ['Terms', '/terms'],
      ['Pricing', '/#pricing'],
    ]) {
      await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href!)
    }
    await expect(footer.getByText(/© \d{4} Circles/)).toBeVisible()

    // The consent and install modules listen for these events; here we only check they are asked.
    await page.evaluate(() => {
      const seen: string[] = []
      ;(window as unknown as { seenEvents: string[] }).seenEvents = seen
      for (const name of ['circles:cookie-preferences', 'circles:install-app']) {
        window.addEventListener(name, () => seen.push(name))
      }
    })
    await footer.getByRole('button', { name: 'Cookie preferences' }).click()
    await footer.getByRole('link', { name: 'Install app' }).click()
    expect(await page.evaluate(() => (window as unknown as { seenEvents: string[] }).seenEvents)).toEqual([
      'circles:cookie-preferences',
      'circles:install-app',
    ])
    await expect(page).toHaveURL(/\/$/)
  })
})

// The `test` every spec uses: Playwright's, plus an `axe` fixture whose expectNoA11yViolations(page) runs
// axe-core (WCAG 2.x A/AA) and fails with a readable list; every page reports navigator.webdriver as
// false, so the cookie banner (which hides from bots) shows. Also `screenshot(page, name)`, below.
import { AxeBuilder } from '@axe-core/playwright'
import { test as base, expect, type Page } from '@playwright/test'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const SCREENS_DIR = fileURLToPath(new URL('../test-results/screens', import.meta.url))
export const A11Y_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/** Init script: vanilla-cookieconsent's hideFromBots checks navigator.webdriver. */
export function markNotAutomated(): void {
  Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false })
}

export interface A11yOptions {
  /** CSS selectors to scan, when only part of the page is the subject (default: the whole page). */
  include?: string[]
  /** CSS selectors to leave out of the scan. */
  exclude?: string[]
  /** axe rule ids to switch off (say why where you use it). */
  disableRules?: string[]
}

export interface Axe {
  expectNoA11yViolations(page: Page, options?: A11yOptions): Promise<void>
}

/**
 * The cookie a decided visitor has (necessary only), as vanilla-cookieconsent writes it. Tests that are
 * not about consent start with it, so the dialog (a modal that takes focus) never races with them.
 */
export function decidedConsentCookie(baseURL: string) {
  const now = new Date().toISOString()
  const value = {
    categories: ['necessary'],
    revision: 0,
    data: null,
    consentTimestamp: now,
    consentId: '00000000-0000-4000-8000-000000000000',
    services: { necessary: [], analytics: [] },
    languageCode: 'en',
    lastConsentTimestamp: now,
    expirationTime: Date.now() + 182 * 24 * 3600 * 1000,
  }
  return {
    name: 'cc_cookie',
    value: encodeURIComponent(JSON.stringify(value)),
    url: baseURL,
    sameSite: 'Lax' as const,
  }
}

export const test = base.extend<{ axe: Axe; consentDecided: boolean }>({
  /** Set `test.use({ consentDecided: false })` where the first-visit consent dialog is the subject. */
  consentDecided: [true, { option: true }],

  context: async ({ context, consentDecided, baseURL }, use) => {
    await context.addInitScript(markNotAutomated)
    if (consentDecided && baseURL) await context.addCookies([decidedConsentCookie(baseURL)])
    await use(context)
  },

  // eslint-disable-next-line no-empty-pattern
  axe: async ({}, use, testInfo) => {
    await use({
      async expectNoA11yViolations(page, options = {}) {
        // A toast or dialog still fading in has the contrast of its half-way opacity: scan settled UI.
        // Sonner shows a toast a frame after rendering it (data-mounted), and a style change starts its
        // transition only at the next frame: both are waited for before the running ones are.
        await page.evaluate(async () => {
          const frame = () => new Promise((resolve) => requestAnimationFrame(resolve))
          const until = Date.now() + 2000
          while (document.querySelector('[data-sonner-toast][data-mounted="false"]') && Date.now() < until)
            await frame()
          await frame()
          await frame()
        })
        await page.evaluate(() =>
          Promise.race([
            Promise.all(
              document
                .getAnimations()
                .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
                .map((animation) => animation.finished.catch(() => undefined)),
            ),
            // A paused animation never finishes.
            new Promise((resolve) => setTimeout(resolve, 2000)),
          ]),
        )
        let builder = new AxeBuilder({ page }).withTags(A11Y_TAGS)
        for (const selector of options.include ?? []) builder = builder.include(selector)
        for (const selector of options.exclude ?? []) builder = builder.exclude(selector)
        if (options.disableRules?.length) builder = builder.disableRules(options.disableRules)
        const results = await builder.analyze()
        if (results.violations.length > 0) {
          await testInfo.attach(`axe-violations-${testInfo.attachments.length}`, {
            body: JSON.stringify(results.violations, null, 2),
            contentType: 'application/json',
          })
        }
        const summary = results.violations.map(
          (violation) =>
            `${violation.id} (${violation.impact ?? 'n/a'}): ${violation.help} — ` +
            violation.nodes
              .slice(0, 5)
              .map((node) => node.target.join(' '))
              .join(' | '),
        )
        expect(summary, `axe violations on ${page.url()}`).toEqual([])
      },
    })
  },
})

export { expect }

/**
 * Saves a full-page PNG to e2e/test-results/screens/<name>.png (after web fonts load) and attaches it to
 * the current test's report. Returns the file's path. (A function, not a fixture: Playwright's own
 * `screenshot` option owns that fixture name.)
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENS_DIR, { recursive: true })
  const path = join(SCREENS_DIR, `${name}.png`)
  await page.evaluate(() => document.fonts.ready.then(() => undefined))
  await page.screenshot({ path, fullPage: true })
  await test.info().attach(name, { path, contentType: 'image/png' })
  return path
}

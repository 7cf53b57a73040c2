// Helpers for the consent specs (consent.spec.ts, consent-in-page.spec.ts). Not a spec itself.
import type { BrowserContext, Page } from '@playwright/test'

/** The first-visit consent dialog of vanilla-cookieconsent. */
export const consentBox = (page: Page) => page.locator('#cc-main .cm')

/** The library's cookie, once the visitor has chosen. */
export async function consentCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === 'cc_cookie')
}

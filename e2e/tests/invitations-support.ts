// Helpers for invitations.spec.ts: circles made through the real API, signing in and out in the browser,
// and an axe scan of one part of a page. Not a spec itself (Playwright only runs *.spec.ts).
import type { APIRequestContext, Page } from '@playwright/test'
import { expect } from '../support/fixtures'
import { PASSWORD, logIn, openForm } from './auth-support'

export const HEX64 = /^[0-9a-f]{64}$/

/** A session token for API calls made on a user's behalf. */
export async function apiToken(request: APIRequestContext, email: string, password = PASSWORD) {
  const response = await request.post('/api/users/login', { data: { email, password } })
  expect(response.status(), await response.text()).toBe(200)
  return ((await response.json()) as { token: string }).token
}

/** A circle the user administers, made through POST /api/circles. */
export async function createCircle(
  request: APIRequestContext,
  token: string,
  name: string,
  description = 'Shared tools for the workshop',
) {
  const response = await request.post('/api/circles', {
    data: { name, description },
    headers: { Authorization: `Bearer ${token}` },
  })
  expect(response.status(), await response.text()).toBe(201)
  return ((await response.json()) as { circle: { id: string; name: string } }).circle
}

/** An email invitation made through the API (POST /circles/:id/users), for lists that need entries. */
export async function inviteViaApi(
  request: APIRequestContext,
  token: string,
  circleId: string,
  email: string,
) {
  const response = await request.post(`/api/circles/${circleId}/users`, {
    data: { email },
    headers: { Authorization: `Bearer ${token}` },
  })
  expect(response.status(), await response.text()).toBe(201)
  return ((await response.json()) as { invitation: { id: string } }).invitation
}

/** Signs in through the login form and waits for the dashboard. */
export async function signIn(page: Page, email: string, password = PASSWORD) {
  await openForm(page, '/login')
  await logIn(page, email, password)
  await page.waitForURL('**/dashboard')
}

/** Ends the session the way a new visitor on this browser would find it (the consent choice stays). */
export async function signOut(page: Page) {
  await page.evaluate(() => {
    for (const key of [
      'token',
      'user',
      'userId',
      'pending_invitation_token',
      'invitation_email',
      'returnUrl',
    ]) {
      localStorage.removeItem(key)
    }
    // As the app's sign-out does (apps/web/src/lib/session.ts).
    document.cookie = 'circles_session=; Path=/; Max-Age=0; SameSite=Strict'
  })
}

/** The UI language for the next page load: the stored choice and the `lang` cookie the server reads. */
export async function setLanguage(page: Page, language: 'en' | 'de') {
  await page.evaluate((lng) => localStorage.setItem('language', lng), language)
  await page.context().addCookies([{ name: 'lang', value: language, url: process.env.E2E_BASE_URL ?? '' }])
}

/** The admin's invitations card on the circle page. */
export function invitationsCard(page: Page, language: 'en' | 'de' = 'en') {
  return page.getByRole('region', { name: language === 'en' ? 'Invite people' : 'Leute einladen' })
}

import type { Page } from '@playwright/test'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SCREENS_DIR, expect, test } from '../support/fixtures'
import { extractLink, waitForEmail } from '../support/mail'
import {
  createUnverifiedUser,
  expectAccessible,
  screenshotScreen,
  toast,
  useGerman,
  verificationLink,
} from './auth-support'
import { createCircle, createSignedInUser, joinCircle, memberRow, signInAs } from './circles-support'

// Issue 23, fewer steps and fewer dead ends on the first day: Add item from a circle, the edit that
// returns where it started, the verified address prefilled at login, the invitation that names its circle
// and inviter to a visitor, toasts below the header, members' buttons named for the member, the real
// font in the first paint.

const INVITED_SUBJECT = /invited you to|eingeladen/

async function bothWidths(page: Page, name: string, axe?: Parameters<typeof expectAccessible>[1]) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    if (axe) await expectAccessible(page, axe)
    await screenshotScreen(page, `${name}-${width}`)
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

test('Add item from a circle opens the form; Back, Cancel and Save return to the circle; an edit returns where it started', async ({
  page,
  request,
  axe,
}) => {
  test.setTimeout(120_000)
  const ida = await createSignedInUser(request, 'flow-add', 'Ida Admin')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await signInAs(page, ida)
  await page.goto(`/circles/${circleId}`)

  await page.getByRole('main').getByRole('link', { name: 'Add item' }).click()
  const form = page.getByRole('form', { name: 'Add an item' })
  await expect(form.getByLabel('Name')).toBeVisible()
  const back = page.getByRole('link', { name: 'Back to Linden Street' })
  await expect(back).toHaveAttribute('href', `/circles/${circleId}`)
  await bothWidths(page, 'flow-add-item-from-circle-en', axe)

  // Cancel returns to the circle.
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page).toHaveURL(new RegExp(`/circles/${circleId}$`))

  // Save returns to the circle, where the new item shows.
  await page.getByRole('main').getByRole('link', { name: 'Add item' }).click()
  await form.getByLabel('Name').fill('Ladder')
  await form.getByRole('button', { name: 'Save item' }).click()
  await expect(page).toHaveURL(new RegExp(`/circles/${circleId}$`))
  await expect(toast(page, 'success', 'Item created')).toBeVisible()
  await expect(page.getByRole('region', { name: 'Items' }).getByText('Ladder')).toBeVisible()

  // The toast sits below the header: the language switch, avatar and Log out stay uncovered.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await expectToastBelowHeader(page)
    await page.screenshot({ path: join(SCREENS_DIR, `flow-toast-below-header-${width}.png`) })
  }
  await page.setViewportSize({ width: 1280, height: 900 })

  // A link from elsewhere that names a foreign 'from' is not followed.
  await page.goto(`/circle/${circleId}/items?add=1&from=${encodeURIComponent('https://evil.example/')}`)
  await expect(page.getByRole('link', { name: 'Back to dashboard' })).toHaveAttribute('href', '/dashboard')
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page).toHaveURL(new RegExp(`/circle/${circleId}/items$`))

  // An edit started on the item's page comes back to it.
  await page.goto(`/circles/${circleId}`)
  await page
    .getByRole('region', { name: 'Items' })
    .getByRole('link', { name: /Ladder/ })
    .click()
  await expect(page.getByRole('heading', { level: 1, name: 'Ladder' })).toBeVisible()
  const itemUrl = page.url()
  await page.getByRole('link', { name: 'Edit item' }).click()
  await page.getByLabel('Name').fill('Long ladder')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page).toHaveURL(itemUrl)
  await expect(page.getByRole('heading', { level: 1, name: 'Long ladder' })).toBeVisible()

  // German.
  await useGerman(page)
  await page.goto(`/circles/${circleId}`)
  await page.getByRole('main').getByRole('link', { name: 'Gegenstand hinzufügen' }).click()
  await expect(page.getByRole('link', { name: 'Zurück zu Linden Street' })).toBeVisible()
  await bothWidths(page, 'flow-add-item-from-circle-de')
})

/** Every visible toast starts below the sticky header (and so below its controls). */
async function expectToastBelowHeader(page: Page) {
  const header = await page.locator('header').first().boundingBox()
  const toasts = page.locator('[data-sonner-toast][data-visible="true"]')
  await expect(toasts.first()).toBeVisible()
  expect(header).not.toBeNull()
  // Where the toast comes to rest: it slides in from above (sonner), so an early look sees it higher.
  await expect
    .poll(async () => (await toasts.first().boundingBox())?.y ?? -1)
    .toBeGreaterThanOrEqual(header!.y + header!.height)
  const first = await toasts.first().boundingBox()
  for (const name of ['Log out']) {
    const control = page.getByRole('banner').getByRole('button', { name })
    if (await control.isVisible()) {
      const box = await control.boundingBox()
      expect(first!.y).toBeGreaterThanOrEqual(box!.y + box!.height)
    }
  }
}

test("each member's Remove and Make admin button names the member, in English and German", async ({
  page,
  request,
  axe,
}) => {
  const ida = await createSignedInUser(request, 'flow-rm-admin', 'Ida Admin')
  const ben = await createSignedInUser(request, 'flow-rm-ben', 'Ben Neighbour')
  const cleo = await createSignedInUser(request, 'flow-rm-cleo', 'Cleo Park')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)
  await joinCircle(request, circleId, ida, cleo)
  await signInAs(page, ida)
  await page.goto(`/circles/${circleId}`)

  await expect(
    memberRow(page, 'Ben Neighbour').getByRole('button', { name: 'Remove Ben Neighbour', exact: true }),
  ).toBeVisible()
  await expect(
    memberRow(page, 'Cleo Park').getByRole('button', { name: 'Remove Cleo Park', exact: true }),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Remove', exact: true })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Make Cleo Park the admin', exact: true })).toBeVisible()
  await expectAccessible(page, axe)

  await useGerman(page)
  await page.reload()
  await expect(page.getByRole('button', { name: 'Ben Neighbour entfernen', exact: true })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Cleo Park zum Admin machen', exact: true })).toBeVisible()
})

test('the verified-email page opens the login with the address filled in', async ({ page, request }) => {
  const user = await createUnverifiedUser(request, 'flow-verify', 'Vera Verified')
  const link = new URL(await verificationLink(user.email))
  await page.goto(`${link.pathname}${link.search}`)
  await expect(page.getByRole('heading', { level: 1, name: "You're all set" })).toBeVisible()
  await page.getByRole('link', { name: 'Log in now' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByLabel('Email')).toHaveValue(user.email)
  await bothWidths(page, 'flow-login-after-verify-en')

  // A link that is not valid prefills nothing (and says so, as before).
  await page.goto('/verify?token=' + 'f'.repeat(64))
  await expect(page.getByRole('heading', { level: 1, name: "We couldn't verify your email" })).toBeVisible()
  await page.getByRole('main').getByRole('link', { name: 'Log in' }).click()
  await expect(page.getByLabel('Email')).toHaveValue('')
})

test('an invitation opened while signed out names the circle and who invited (email and QR)', async ({
  page,
  request,
  axe,
}) => {
  const ida = await createSignedInUser(request, 'flow-inv-admin', 'Ida Admin')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  const auth = { Authorization: `Bearer ${ida.token}` }

  // Email invitation: the link from the mail.
  const invitee = `flow-invitee-${Date.now()}@example.com`
  const invited = await request.post(`/api/circles/${circleId}/users`, {
    data: { email: invitee },
    headers: auth,
  })
  expect(invited.status(), await invited.text()).toBe(201)
  const link = new URL(extractLink(await waitForEmail(invitee, { subject: INVITED_SUBJECT }), '/join?token='))
  await page.goto(`${link.pathname}${link.search}`)
  await expect(page).toHaveURL(/\/login/)
  await expect(
    page.getByText(
      'Ida Admin invited you to join “Linden Street”. Log in or create an account to accept the invitation.',
    ),
  ).toBeVisible()
  await expect(page.getByLabel('Email')).toHaveValue(invitee)
  await expectAccessible(page, axe)
  await bothWidths(page, 'flow-invitation-login-en')
  await page.getByRole('link', { name: 'Create an account' }).click()
  await expect(
    page.getByText(
      'Ida Admin invited you to join “Linden Street”. Create your account to accept the invitation.',
    ),
  ).toBeVisible()
  await bothWidths(page, 'flow-invitation-register-en')

  // QR invitation, in German, in a fresh browser state.
  const qr = await request.post(`/api/circles/${circleId}/invitations/qr`, {
    data: { email: `flow-qr-${Date.now()}@example.com` },
    headers: auth,
  })
  expect(qr.status(), await qr.text()).toBe(201)
  const { token } = ((await qr.json()) as { invitation: { token: string } }).invitation
  await page.evaluate(() => localStorage.clear())
  await useGerman(page)
  await page.goto(`/join?token=${token}`)
  await expect(
    page.getByText(
      'Ida Admin hat dich in den Kreis „Linden Street“ eingeladen. Melde dich an oder erstelle ein Konto, um die Einladung anzunehmen.',
    ),
  ).toBeVisible()
  await bothWidths(page, 'flow-invitation-login-de')

  // A cancelled invitation says so in the spec's words.
  const list = await request.get(`/api/circles/${circleId}/invitations`, { headers: auth })
  const pending = ((await list.json()) as { invitations: { id: string; email: string }[] }).invitations
  const emailInvitation = pending.find((entry) => entry.email === invitee)!
  await request.delete(`/api/circles/${circleId}/invitations/${emailInvitation.id}`, { headers: auth })
  await page.evaluate(() => localStorage.clear())
  await page.context().clearCookies()
  // Still in German (the language choice stays): the spec's message in its German words.
  await page.goto(`${link.pathname}${link.search}`)
  await expect(
    page.getByText('Einladung nicht gefunden. Prüfe den Link oder bitte um eine neue Einladung.'),
  ).toBeVisible()
})

test.describe('the first paint uses Inter, not the fallback font', () => {
  test.use({ consentDecided: false })

  for (const path of ['/', '/login']) {
    test(`preloaded on a first visit to ${path}`, async ({ page }) => {
      await page.goto(path)
      await page.waitForLoadState('load')
      // The preload is in the HTML the server sends, for the very file the @font-face names.
      const preload = page.locator('head link[rel="preload"][as="font"]')
      await expect(preload).toHaveCount(1)
      await expect(preload).toHaveAttribute('crossorigin', '')
      await expect(preload).toHaveAttribute('type', 'font/woff2')
      const href = await preload.getAttribute('href')
      const css = await page.locator('head style').first().textContent()
      expect(css).toContain(`url(${href})`)

      const timing = await page.evaluate(() => {
        const font = performance
          .getEntriesByType('resource')
          .find((entry) => entry.name.includes('/assets/inter-')) as PerformanceResourceTiming | undefined
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime
        return {
          initiator: font?.initiatorType,
          responseEnd: font?.responseEnd,
          fcp,
          count: performance
            .getEntriesByType('resource')
            .filter((entry) => entry.name.includes('/assets/inter-')).length,
        }
      })
      // Fetched once, by the preload (not discovered late by the stylesheet), and in use.
      expect(timing.initiator).toBe('link')
      expect(timing.count).toBe(1)
      // Drawn in Inter on this very first visit, no reload (CDP: the font actually used).
      await page.evaluate(() => document.fonts.ready)
      expect(await renderedFonts(page, 'h1')).toEqual(['Inter'])
    })
  }

  test('a slow font: text shows at once in the matched fallback, Inter swaps in without moving the page', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: number[] }
      w.shifts = []
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) w.shifts.push((entry as unknown as { value: number }).value)
      }).observe({ type: 'layout-shift', buffered: true })
    })
    // The font is held back until the page has been looked at in the fallback (a slow mobile network).
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route('**/assets/inter-*.woff2', async (route) => {
      await held
      await route.continue()
    })
    // Not waiting for 'load': that waits for the preloaded font too.
    await page.goto('/login', { waitUntil: 'domcontentloaded' })
    const heading = page.getByRole('heading', { level: 1 })
    await expect(heading).toBeVisible()
    // Visible (font-display: swap, no invisible text), in Arial's metric twin scaled to Inter.
    expect(await renderedFonts(page, 'h1')).toEqual(['Liberation Sans'])
    const before = await heading.boundingBox()
    // Playwright's screenshot waits for fonts; the fallback is captured through CDP.
    const cdp = await page.context().newCDPSession(page)
    const { data } = await cdp.send('Page.captureScreenshot', { format: 'png' })
    await writeFile(join(SCREENS_DIR, 'font-fallback-390.png'), Buffer.from(data, 'base64'))

    release()
    await expect.poll(() => renderedFonts(page, 'h1')).toEqual(['Inter'])
    const after = await heading.boundingBox()
    // Same line height: nothing below the heading moves when Inter comes in. What moves at all is a few
    // pixels sideways (a badge beside the logo's word): far below the 0.1 counted as a good page.
    expect(after?.height).toBe(before?.height)
    await screenshotScreen(page, 'font-inter-390')
    const shifts = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts)
    expect(shifts.reduce((sum, value) => sum + value, 0)).toBeLessThan(0.001)
  })
})

/** The fonts Chromium drew the element's text with (not the CSS wish list). */
async function renderedFonts(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('DOM.enable')
  await cdp.send('CSS.enable')
  const { root } = await cdp.send('DOM.getDocument')
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector })
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId })
  return fonts.map((font) => font.familyName)
}

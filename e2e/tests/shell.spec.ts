// The app shell (spec 000 §2, §4, §8): which pages get the app header and footer, the footer toggle,
// the signed-in header and logout, expired sessions, scroll position, in English and German.
import type { APIRequestContext, Page } from '@playwright/test'
import { expect, screenshot, test } from '../support/fixtures'
import { extractLink, waitForEmail } from '../support/mail'

const OWN_CHROME = [
  '/',
  '/about',
  '/privacy',
  '/terms',
  '/contact',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password',
]
const PASSWORD = 'e2e-Shell-passw0rd'

interface StoredSession {
  token: string
  user: { id: string; name: string; email: string }
}

/** Register, verify with the emailed link and log in, all through the real API. */
async function createSignedInUser(request: APIRequestContext, name = 'Grace Hopper'): Promise<StoredSession> {
  const email = `e2e-shell-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const registered = await request.post('/api/users/register', { data: { name, email, password: PASSWORD } })
  expect(registered.status(), await registered.text()).toBeLessThan(300)
  const link = new URL(extractLink(await waitForEmail(email, { timeoutMs: 30_000 }), '/verify?token='))
  const verified = await request.get(
    `/api/users/verify/${encodeURIComponent(link.searchParams.get('token')!)}`,
  )
  expect(verified.status(), await verified.text()).toBe(200)
  const login = await request.post('/api/users/login', { data: { email, password: PASSWORD } })
  expect(login.status(), await login.text()).toBe(200)
  return (await login.json()) as StoredSession
}

/** Puts the session where the app keeps it, as a previous visit would have left it. */
async function storeSession(page: Page, session: StoredSession): Promise<void> {
  await page.evaluate((s) => {
    localStorage.setItem('token', s.token)
    localStorage.setItem('user', JSON.stringify(s.user))
    localStorage.setItem('userId', s.user.id)
  }, session)
}

/** An unsigned JWT-shaped token: the client only reads its claims. */
function fakeToken(expiresInSeconds: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const exp = Math.floor(Date.now() / 1000) + expiresInSeconds
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'u-1', exp })}.signature`
}

async function useGerman(page: Page, baseURL: string): Promise<void> {
  await page.addInitScript(() => window.localStorage.setItem('language', 'de'))
  await page.context().addCookies([{ name: 'lang', value: 'de', url: baseURL }])
}

/** The app header is the one with the footer toggle; the app footer the one with quick links. */
const appHeader = (page: Page) =>
  page.locator('header').filter({
    has: page.getByRole('button', { name: /Show footer|Fußzeile anzeigen/, includeHidden: true }),
  })
const appFooter = (page: Page) =>
  page.locator('footer').filter({ has: page.getByRole('navigation', { name: /Quick links|Schnellzugriff/ }) })

test.describe('layout rules', () => {
  test('the pages with their own chrome show neither the app header nor the app footer', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    for (const path of OWN_CHROME) {
      await page.goto(path)
      await expect(page.locator('main').first(), path).toBeVisible()
      await expect(appHeader(page), path).toHaveCount(0)
      await expect(appFooter(page), path).toHaveCount(0)
    }
  })

  test('a visitor on /verify and on an unknown page gets the app header and footer', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    for (const path of ['/verify', '/no/such/page']) {
      await page.goto(path)
      await expect(appHeader(page), path).toBeVisible()
      await expect(appHeader(page).getByRole('link', { name: 'Log in' })).toBeVisible()
      await expect(appHeader(page).getByRole('link', { name: 'Register' })).toBeVisible()
      await expect(appFooter(page), path).toBeVisible()
    }
  })

  test('the footer toggle hides the footer, and the choice survives a reload', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/no/such/page')
    const toggle = page.getByRole('button', { name: 'Show footer' })
    await expect(toggle).toHaveAttribute('aria-pressed', 'true')
    await toggle.click()
    await expect(appFooter(page)).toHaveCount(0)
    await expect(toggle).toHaveAttribute('aria-pressed', 'false')

    await page.reload()
    await expect(appHeader(page)).toBeVisible()
    await expect(appFooter(page)).toHaveCount(0)
    await expect(page.getByRole('button', { name: 'Show footer' })).toHaveAttribute('aria-pressed', 'false')

    await page.getByRole('button', { name: 'Show footer' }).click()
    await page.reload()
    await expect(appFooter(page)).toBeVisible()
  })

  test('the page scrolls to the top on navigation', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 500 })
    await page.goto('/no/such/page')
    await expect(appFooter(page)).toBeVisible()
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100)
    await appFooter(page).getByRole('link', { name: 'Privacy' }).click()
    await expect(page).toHaveURL(/\/privacy$/)
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
  })

  test('Back returns to where the reader was (docs/decisions/0020)', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 500 })
    await page.goto('/no/such/page')
    await expect(appFooter(page)).toBeVisible()
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100)
    const reading = await page.evaluate(() => window.scrollY)
    await appFooter(page).getByRole('link', { name: 'Privacy' }).click()
    await expect(page).toHaveURL(/\/privacy$/)
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
    await page.goBack()
    await expect(page).toHaveURL(/\/no\/such\/page$/)
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(reading)
  })
})

test.describe('signed in', () => {
  test('the header shows the app areas, marks the current page, and logout clears the session', async ({
    page,
    request,
    axe,
  }) => {
    const session = await createSignedInUser(request, 'Grace Hopper')
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/no/such/page')
    await storeSession(page, session)
    await page.goto('/dashboard')

    await expect(page.getByRole('heading', { level: 1, name: 'Welcome back, Grace Hopper' })).toBeVisible()
    const nav = appHeader(page).getByRole('navigation', { name: 'Main' })
    await expect(nav.getByRole('link')).toHaveText(['Dashboard', 'Circles', 'Items', 'Loans', 'Ledger'])
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page')
    await expect(appHeader(page).getByRole('link', { name: 'Profile' })).toBeVisible()
    await expect(appHeader(page).getByRole('link', { name: 'Log in' })).toHaveCount(0)
    await expect(appFooter(page)).toBeVisible()
    await screenshot(page, 'shell-dashboard-en-1280')
    await axe.expectNoA11yViolations(page)

    await nav.getByRole('link', { name: 'Items' }).click()
    await expect(page).toHaveURL(/\/items$/)
    await expect(nav.getByRole('link', { name: 'Items' })).toHaveAttribute('aria-current', 'page')
    await expect(page.getByRole('heading', { level: 1, name: 'My items' })).toBeVisible()
    await nav.getByRole('link', { name: 'Ledger' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Ledger' })).toBeVisible()

    await appHeader(page).getByRole('button', { name: 'Log out' }).click()
    await expect(page).toHaveURL(/\/$/)
    expect(
      await page.evaluate(() => [
        localStorage.getItem('token'),
        localStorage.getItem('user'),
        localStorage.getItem('userId'),
      ]),
    ).toEqual([null, null, null])
    // Signed out: the protected page sends to the login page.
    await page.goto('/dashboard')
    await expect(page).toHaveURL(/\/login\?returnUrl=%2Fdashboard$/)
  })

  test('on a phone the navigation lives in a menu; German throughout', async ({
    page,
    request,
    axe,
    baseURL,
  }) => {
    const session = await createSignedInUser(request, 'Ada Lovelace')
    await useGerman(page, baseURL!)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/no/such/page')
    await storeSession(page, session)
    await page.goto('/dashboard')
    await expect(
      page.getByRole('heading', { level: 1, name: 'Willkommen zurück, Ada Lovelace' }),
    ).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await screenshot(page, 'shell-dashboard-de-390')
    await axe.expectNoA11yViolations(page)

    const menu = page.getByRole('button', { name: 'Menü' })
    await expect(appHeader(page).getByRole('navigation', { name: 'Hauptnavigation' })).toBeHidden()
    await menu.click()
    await expect(menu).toHaveAttribute('aria-expanded', 'true')
    const nav = page.getByRole('navigation', { name: 'Hauptnavigation' })
    await expect(nav.getByRole('link')).toHaveText([
      'Übersicht',
      'Kreise',
      'Gegenstände',
      'Ausleihen',
      'Protokoll',
    ])
    await expect(nav.getByRole('link', { name: 'Übersicht' })).toHaveAttribute('aria-current', 'page')
    await screenshot(page, 'shell-menu-de-390')
    await axe.expectNoA11yViolations(page)

    await page.keyboard.press('Escape')
    await expect(menu).toHaveAttribute('aria-expanded', 'false')
    await expect(menu).toBeFocused()

    await menu.click()
    await page.getByRole('button', { name: 'Abmelden' }).click()
    await expect(page).toHaveURL(/\/$/)
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
  })
})

test.describe('visitors', () => {
  test('a visitor sees the header and footer on an unknown page, in both widths and languages', async ({
    page,
    axe,
    baseURL,
  }) => {
    for (const language of ['en', 'de'] as const) {
      if (language === 'de') await useGerman(page, baseURL!)
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 844 })
        await page.goto('/no/such/page')
        await expect(appHeader(page)).toBeVisible()
        await screenshot(page, `shell-not-found-${language}-${width}`)
        await axe.expectNoA11yViolations(page)
      }
    }
  })
})

test.describe('dark mode', () => {
  test.use({ colorScheme: 'dark' })

  test('header, menu, footer and the install banner keep AA contrast', async ({ page, axe }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/no/such/page')
    await expect(appFooter(page)).toBeVisible()
    // The menu first: the install banner is fixed at the top (spec 000 §2) and covers the header.
    await page.getByRole('button', { name: 'Menu' }).click()
    // What Chrome fires when the app can be installed.
    await page.evaluate(() => {
      const event = new Event('beforeinstallprompt', { cancelable: true })
      Object.assign(event, { prompt: () => Promise.resolve() })
      window.dispatchEvent(event)
    })
    await expect(page.locator('[data-install-banner]')).toBeVisible()
    await screenshot(page, 'shell-not-found-en-390-dark')
    await axe.expectNoA11yViolations(page)
  })
})

test.describe('expired sessions', () => {
  test('an expired token in storage is cleared on load and a protected page sends to login', async ({
    page,
  }) => {
    await page.goto('/no/such/page')
    await page.evaluate((token) => {
      localStorage.setItem('token', token)
      localStorage.setItem(
        'user',
        JSON.stringify({ id: 'u-1', name: 'Old Session', email: 'old@example.com' }),
      )
      localStorage.setItem('userId', 'u-1')
    }, fakeToken(-60))
    await page.goto('/dashboard?tab=activity')
    await expect(page).toHaveURL(/\/login\?returnUrl=%2Fdashboard%3Ftab%3Dactivity$/)
    expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')])).toEqual([
      null,
      null,
    ])
  })

  test('a token that expires while the app is open logs out with the translated message', async ({
    page,
    baseURL,
  }) => {
    await useGerman(page, baseURL!)
    await page.goto('/no/such/page')
    // Ten seconds: long enough for a busy machine to show the dashboard before the session ends.
    await page.evaluate((token) => {
      localStorage.setItem('token', token)
      localStorage.setItem(
        'user',
        JSON.stringify({ id: 'u-1', name: 'Kurz Zeit', email: 'kurz@example.com' }),
      )
      localStorage.setItem('userId', 'u-1')
    }, fakeToken(10))
    // The token is made up (the server issues none that expire in seconds), so the server would refuse
    // it at once: the dashboard's calls are answered here, and only the app's own timer can end it.
    await page.route('**/api/activities/recent', (route) => route.fulfill({ json: { activities: [] } }))
    await page.route('**/api/dashboard/stats', (route) =>
      route.fulfill({ json: { totalCircles: 0, pendingHandovers: 0, ownedItems: 0 } }),
    )
    await page.route('**/api/circles', (route) => route.fulfill({ json: { circles: [] } }))
    // 'Waiting for you' (issue 23).
    await page.route('**/api/handovers', (route) => route.fulfill({ json: { handovers: [] } }))
    // The lending card and the browser's time zone (issue 26).
    await page.route('**/api/loans?*', (route) => route.fulfill({ json: { loans: [] } }))
    await page.route('**/api/borrow-requests?*', (route) => route.fulfill({ json: { borrowRequests: [] } }))
    await page.route('**/api/users/me/time-zone', (route) => route.fulfill({ json: { timeZone: 'UTC' } }))
    await page.route('**/socket.io/**', (route) => route.abort('connectionrefused'))
    await page.goto('/dashboard')
    await expect(page.getByRole('heading', { level: 1, name: 'Willkommen zurück, Kurz Zeit' })).toBeVisible()

    await expect(page).toHaveURL(/\/login\?returnUrl=%2Fdashboard$/, { timeout: 20_000 })
    await expect(
      page
        .locator('[data-sonner-toast]')
        .filter({ hasText: 'Deine Sitzung ist abgelaufen. Bitte melde dich erneut an.' }),
    ).toBeVisible()
    // Spec 000 §2: toasts sit top right.
    const toaster = page.locator('[data-sonner-toaster]')
    await expect(toaster).toHaveAttribute('data-y-position', 'top')
    await expect(toaster).toHaveAttribute('data-x-position', 'right')
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
  })
})

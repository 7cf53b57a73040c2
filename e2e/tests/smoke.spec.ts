import { expect, screenshot, test } from '../support/fixtures'
import { extractLink, waitForEmail } from '../support/mail'

test.describe('the served app', () => {
  test('home page: title, main heading, 1280 and 390 px screenshots, no axe violations', async ({
    page,
    axe,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/')
    await expect(page).toHaveTitle(/Circles/)
    const heading = page.getByRole('heading', { level: 1 }).first()
    await expect(heading).toBeVisible()
    await screenshot(page, 'smoke-home-1280')
    await axe.expectNoA11yViolations(page)

    await page.setViewportSize({ width: 390, height: 844 })
    await expect(heading).toBeVisible()
    // Nothing may push the page sideways on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await screenshot(page, 'smoke-home-390')
    await axe.expectNoA11yViolations(page)
  })

  test('an unknown path gets the web app, which shows its not-found page', async ({ page }) => {
    const response = await page.goto('/this-does-not-exist')
    expect(response?.headers()['content-type'] ?? '').toContain('text/html')
    await expect(page.getByText(/The page you[’']re looking for doesn[’']t exist\./)).toBeVisible()
  })

  test('an unknown API path answers a JSON 404', async ({ request }) => {
    const response = await request.get('/api/nope')
    expect(response.status()).toBe(404)
    expect(response.headers()['content-type'] ?? '').toContain('application/json')
    const body: unknown = await response.json()
    expect(body).toMatchObject({ message: expect.any(String) })
  })
})

test.describe('email through the real API and SMTP', () => {
  test('register, verify with the emailed link, then log in', async ({ request, baseURL }) => {
    const email = `e2e-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
    const password = 'e2e-Smoke-passw0rd'

    const registered = await request.post('/api/users/register', {
      data: { name: 'E2E Smoke', email, password },
    })
    expect(registered.status(), await registered.text()).toBeLessThan(300)
    expect(await registered.json()).toMatchObject({ requiresVerification: true })

    const message = await waitForEmail(email, { timeoutMs: 30_000 })
    const link = new URL(extractLink(message, '/verify?token='))
    expect(link.origin).toBe(new URL(baseURL ?? '').origin)
    const token = link.searchParams.get('token') ?? ''
    expect(token).not.toBe('')

    const verified = await request.get(`/api/users/verify/${encodeURIComponent(token)}`)
    expect(verified.status(), await verified.text()).toBe(200)
    expect(await verified.json()).toMatchObject({ verified: true })

    const loggedIn = await request.post('/api/users/login', { data: { email, password } })
    expect(loggedIn.status(), await loggedIn.text()).toBe(200)
    const session = (await loggedIn.json()) as { token?: unknown; user?: { email?: unknown } }
    expect(typeof session.token === 'string' && session.token.length > 0).toBe(true)
    expect(session.user?.email).toBe(email)
  })
})

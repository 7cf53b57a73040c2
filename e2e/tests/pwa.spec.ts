// The installable app (spec 000 §1, §2, §4): manifest and icons, the service worker, the install
// banner (synthetic beforeinstallprompt, dismissal, iOS Safari steps) and the staging banner.
import type { Page } from '@playwright/test'
import { expect, screenshot, test } from '../support/fixtures'

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'

interface Manifest {
  name: string
  short_name: string
  description: string
  start_url: string
  scope: string
  display: string
  theme_color: string
  background_color: string
  icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>
}

const installBanner = (page: Page) => page.locator('[data-install-banner]')

/** What Chrome fires when the app is installable; prompt() records that it was called. */
async function offerInstall(page: Page, outcome: 'accepted' | 'dismissed' = 'accepted'): Promise<void> {
  await page.evaluate((choice) => {
    const event = new Event('beforeinstallprompt', { cancelable: true })
    Object.assign(event, {
      prompt: () => {
        ;(window as unknown as { prompted: number }).prompted =
          ((window as unknown as { prompted?: number }).prompted ?? 0) + 1
        return Promise.resolve()
      },
      userChoice: Promise.resolve({ outcome: choice, platform: 'web' }),
    })
    window.dispatchEvent(event)
  }, outcome)
}

async function appReady(page: Page): Promise<void> {
  await expect(page.locator('main').first()).toBeVisible()
}

test.describe('manifest and service worker', () => {
  test('the manifest is linked, complete and its icons exist', async ({ page, request }) => {
    await page.goto('/no/such/page')
    const href = await page.locator('link[rel="manifest"]').getAttribute('href')
    expect(href).toBeTruthy()
    const response = await request.get(href!)
    expect(response.status()).toBe(200)
    const manifest = (await response.json()) as Manifest
    expect(manifest).toMatchObject({
      name: 'Circles',
      short_name: 'Circles',
      start_url: '/dashboard',
      scope: '/',
      display: 'standalone',
      theme_color: '#f7f9fb',
      background_color: '#f7f9fb',
    })
    expect(manifest.description.length).toBeGreaterThan(20)

    const sizes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`)
    expect(sizes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']))
    for (const icon of manifest.icons) {
      const file = await request.get(icon.src)
      expect(file.status(), icon.src).toBe(200)
      expect(file.headers()['content-type'], icon.src).toBe('image/png')
      // The PNG header's width and height match the declared size.
      const png = await file.body()
      const [width, height] = icon.sizes.split('x').map(Number)
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], icon.src).toEqual([width, height])
    }

    const appleIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href')
    const apple = await request.get(appleIcon!)
    expect(apple.status()).toBe(200)
    const applePng = await apple.body()
    expect([applePng.readUInt32BE(16), applePng.readUInt32BE(20)]).toEqual([180, 180])
  })

  test('a service worker registers, precaches the app and leaves /api alone', async ({ page, context }) => {
    await page.goto('/no/such/page')
    const scriptURL = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready
      return registration.active?.scriptURL ?? ''
    })
    expect(new URL(scriptURL).pathname).toBe('/sw.js')
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
    await expect
      .poll(() => page.evaluate(async () => (await caches.keys()).some((key) => key.includes('precache'))))
      .toBe(true)

    // Controlled now: an unknown API path is still the server's JSON 404, not the app's HTML.
    const api = await page.goto('/api/nope')
    expect(api?.status()).toBe(404)
    expect(api?.headers()['content-type'] ?? '').toContain('application/json')

    // Offline, a page of the app still opens from the cache.
    await page.goto('/no/such/page')
    await appReady(page)
    await context.setOffline(true)
    try {
      await page.goto('/verify')
      await expect(page.locator('#root')).not.toBeEmpty()
      await expect(page.getByRole('button', { name: 'Show footer' })).toBeVisible()
    } finally {
      await context.setOffline(false)
    }
  })
})

test.describe('install banner', () => {
  test('shows when the browser offers the install, and installs from the button', async ({ page, axe }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.goto('/no/such/page')
    await appReady(page)
    await expect(installBanner(page)).toHaveCount(0)

    await offerInstall(page)
    await expect(installBanner(page)).toBeVisible()
    await expect(installBanner(page)).toHaveAttribute('data-install-banner', 'prompt')
    await expect(page.getByRole('region', { name: 'Install Circles' })).toBeVisible()
    // Fixed at the top: it sits above the app header, and stays there when the page scrolls.
    const bannerBox = await installBanner(page).boundingBox()
    expect(bannerBox?.y).toBe(0)
    await screenshot(page, 'pwa-install-banner-en-1280')
    await axe.expectNoA11yViolations(page)

    await installBanner(page).getByRole('button', { name: 'Install' }).click()
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { prompted?: number }).prompted))
      .toBe(1)
    await expect(installBanner(page)).toHaveCount(0)
  })

  test('a dismissal is remembered across reloads', async ({ page, axe }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/no/such/page')
    await appReady(page)
    await offerInstall(page)
    await expect(installBanner(page)).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await screenshot(page, 'pwa-install-banner-en-390')
    await axe.expectNoA11yViolations(page)

    await installBanner(page).getByRole('button', { name: 'Dismiss' }).click()
    await expect(installBanner(page)).toHaveCount(0)
    expect(await page.evaluate(() => localStorage.getItem('installBannerDismissed'))).not.toBeNull()

    await page.reload()
    await appReady(page)
    await offerInstall(page)

    // "Install app" (the landing page's footer link) still works after a dismissal: straight to the prompt.
    await page.evaluate(() => window.dispatchEvent(new CustomEvent('circles:install-app')))
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { prompted?: number }).prompted))
      .toBe(1)
    // The prompt came from the offer above, so the page had handled it, and rendered what it renders
    // for it, before this point: no banner, without waiting a while to conclude so.
    await expect(installBanner(page)).toHaveCount(0)
  })

  test('speaks German', async ({ page, axe, baseURL }) => {
    await page.addInitScript(() => window.localStorage.setItem('language', 'de'))
    await page.context().addCookies([{ name: 'lang', value: 'de', url: baseURL! }])
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 })
      await page.goto('/no/such/page')
      await appReady(page)
      await offerInstall(page)
      await expect(installBanner(page)).toContainText('Circles installieren')
      await expect(installBanner(page).getByRole('button', { name: 'Installieren' })).toBeVisible()
      await screenshot(page, `pwa-install-banner-de-${width}`)
      await axe.expectNoA11yViolations(page)
    }
  })
})

test.describe('install banner in iOS Safari', () => {
  test.use({
    userAgent: IPHONE_SAFARI,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  })

  test('shows the three steps, and after a dismissal only when asked', async ({ page, axe }) => {
    await page.goto('/no/such/page')
    await expect(installBanner(page)).toHaveAttribute('data-install-banner', 'ios')
    const steps = installBanner(page).getByRole('listitem')
    await expect(steps).toHaveText([
      'Tap the Share button',
      'Choose “Add to Home Screen”',
      'Tap “Add” to confirm',
    ])
    await expect(installBanner(page).getByRole('button', { name: 'Install' })).toHaveCount(0)
    await screenshot(page, 'pwa-install-ios-en-390')
    await axe.expectNoA11yViolations(page)

    await installBanner(page).getByRole('button', { name: 'Dismiss' }).click()
    await expect(installBanner(page)).toHaveCount(0)
    await page.reload()
    await appReady(page)
    await expect(installBanner(page)).toHaveCount(0)

    await page.evaluate(() => window.dispatchEvent(new CustomEvent('circles:install-app')))
    await expect(installBanner(page)).toHaveAttribute('data-install-banner', 'ios')
  })

  test('in German', async ({ page, axe, baseURL }) => {
    await page.addInitScript(() => window.localStorage.setItem('language', 'de'))
    await page.context().addCookies([{ name: 'lang', value: 'de', url: baseURL! }])
    await page.goto('/no/such/page')
    await expect(installBanner(page).getByRole('listitem')).toHaveText([
      'Tippe auf „Teilen“',
      'Wähle „Zum Home-Bildschirm“',
      'Bestätige mit „Hinzufügen“',
    ])
    await screenshot(page, 'pwa-install-ios-de-390')
    await axe.expectNoA11yViolations(page)
  })
})

test.describe('staging banner', () => {
  // The HTML is rewritten below; a service worker would answer navigations before the route sees them.
  test.use({ serviceWorkers: 'block' })

  async function serveAsStaging(page: Page, staging: boolean): Promise<void> {
    await page.route('**/*', async (route) => {
      if (route.request().resourceType() !== 'document') return route.continue()
      const response = await route.fetch()
      const config = JSON.stringify({ contactEmail: 'contact@circles.test', staging })
      // First in <head>, so it wins over any circles-config the server added.
      const body = (await response.text()).replace(
        '<head>',
        `<head><meta name="circles-config" content='${config}'>`,
      )
      await route.fulfill({ response, body })
    })
  }

  test('shows on staging, above everything, in both widths', async ({ page, axe }) => {
    await serveAsStaging(page, true)
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 })
      await page.goto('/no/such/page')
      const banner = page.getByRole('region', { name: 'Staging' })
      await expect(banner).toContainText('Test environment – data may be reset at any time.')
      expect((await banner.boundingBox())?.y).toBe(0)
      await screenshot(page, `pwa-staging-en-${width}`)
      await axe.expectNoA11yViolations(page)
    }
    // On the public pages with their own chrome too.
    await page.goto('/about')
    await expect(page.getByRole('region', { name: 'Staging' })).toBeVisible()
  })

  test('stays away in production', async ({ page }) => {
    await serveAsStaging(page, false)
    await page.goto('/no/such/page')
    await appReady(page)
    await expect(page.locator('[data-staging-banner]')).toHaveCount(0)
  })
})

import type { Page } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import { screenshotScreen, useGerman } from './auth-support'
import { createCircle, createSignedInUser, signInAs } from './circles-support'

// Issue 27, docs/decisions/0065: the main signed-in screens arrive with their frame (header, heading,
// intro) in the HTML, paint before any script, and the app hydrates it and adds the rest below, part by
// part, without moving what is shown.

/** Sums the layout shifts of the page's load (as CLS counts them: none right after input). */
async function watchLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const shifts: number[] = []
    Object.assign(window, { __shifts: shifts })
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number
        hadRecentInput: boolean
      })[])
        if (!entry.hadRecentInput) shifts.push(entry.value)
    }).observe({ type: 'layout-shift', buffered: true })
  })
  return () =>
    page.evaluate(() =>
      (window as unknown as { __shifts: number[] }).__shifts.reduce((sum, value) => sum + value, 0),
    )
}

test('the dashboard paints its frame before any script, then draws the person and their cards over it', async ({
  page,
  request,
  axe,
}) => {
  const frieda = await createSignedInUser(request, 'frame-dash', 'Frieda Frame')
  await createCircle(request, frieda, { name: 'Frame Street' })
  await signInAs(page, frieda)

  // No script at all: the HTML alone shows the screen's header, heading and intro.
  await page.route('**/assets/*.js', (route) => route.abort())
  await page.goto('/dashboard')
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible()
  await expect(page.getByText('What happened in your circles, and what is waiting for you.')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Circles home' })).toBeVisible()
  // Its buttons can do nothing yet, and say so.
  await expect(page.getByRole('button', { name: 'Log out' })).toBeDisabled()
  await page.unroute('**/assets/*.js')

  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  const shifted = await watchLayoutShifts(page)
  await page.goto('/dashboard')
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back, Frieda Frame' })).toBeVisible()
  // The parts below the frame: the cards, and the circle in them.
  await expect(page.getByRole('heading', { name: 'Recent activity' })).toBeVisible()
  await expect(page.getByRole('complementary').getByText('Frame Street')).toBeVisible()
  await expect(page.getByRole('link', { name: /Profile/ }).first()).toHaveAttribute(
    'title',
    'Signed in as Frieda Frame',
  )
  await expect(page.getByRole('button', { name: 'Log out' })).toBeEnabled()
  expect(await shifted()).toBeLessThan(0.01)
  expect(errors).toEqual([])
  await axe.expectNoA11yViolations(page)
  await screenshotScreen(page, 'frame-dashboard-en-1280')
})

test('a frame comes in the language of the lang cookie, and the screen follows the stored choice', async ({
  page,
  request,
}) => {
  const fritz = await createSignedInUser(request, 'frame-de', 'Fritz Rahmen')
  await useGerman(page)
  await signInAs(page, fritz)
  await page.route('**/assets/*.js', (route) => route.abort())
  await page.goto('/circles')
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expect(page.getByRole('heading', { level: 1, name: 'Deine Kreise' })).toBeVisible()
  await page.unroute('**/assets/*.js')
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/circles')
  await expect(page.getByRole('heading', { level: 1, name: 'Deine Kreise' })).toBeVisible()
  // The list is a part of its own: the empty state of someone without circles.
  await expect(page.getByText('Noch keine Kreise')).toBeVisible()
  await screenshotScreen(page, 'frame-circles-de-390')
})

test('a visitor who opens a framed screen is sent to sign in', async ({ page }) => {
  await page.goto('/items')
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fitems$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Log in to Circles' })).toBeVisible()
})

test('the app draws over a frame what the address asks for: the tab and the search it names', async ({
  page,
  request,
}) => {
  const greta = await createSignedInUser(request, 'frame-query', 'Greta Query')
  await signInAs(page, greta)
  await page.goto('/loans?tab=lent')
  await expect(page.getByRole('tab', { name: 'Lent' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('tab', { name: 'Borrowed' })).toHaveAttribute('aria-selected', 'false')
  await page.goto('/items?q=drill')
  await expect(
    page.getByRole('searchbox', { name: 'Search items' }).or(page.getByLabel('Search items')),
  ).toHaveValue('drill')
})

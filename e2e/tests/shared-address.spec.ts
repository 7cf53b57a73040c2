// A makerspace, a student house or an office reaches Circles from one public address. Thirty people
// opening Circles for the first time within a minute, service worker on (its precache fetches every
// file of the app), from 127.0.0.1 like every test of this suite: every page loads and its script runs.
import type { Browser, Response } from '@playwright/test'
import { expect, markNotAutomated, test } from '../support/fixtures'

const VISITS = 30
const AT_ONCE = 3

/** The page, and what shows that its script has taken over. */
const PAGES = [
  { path: '/login', ready: 'main button[type="submit"]:enabled' },
  { path: '/register', ready: 'main button[type="submit"]:enabled' },
  { path: '/contact', ready: 'main button[type="submit"]:enabled' },
  { path: '/forgot-password', ready: 'main button[type="submit"]:enabled' },
  // Static pages: their script starts the cookie consent on a first visit.
  { path: '/', ready: '#cc-main .cm' },
  { path: '/about', ready: '#cc-main .cm' },
  // An app route: the SPA renders it (a visitor is sent to /login).
  { path: '/circles', ready: 'main button[type="submit"]:enabled' },
]

interface Visit {
  requests: number
  failures: string[]
}

async function firstVisit(browser: Browser, baseURL: string, index: number): Promise<Visit> {
  const { path, ready } = PAGES[index % PAGES.length]!
  const context = await browser.newContext({ baseURL, serviceWorkers: 'allow' })
  const visit: Visit = { requests: 0, failures: [] }
  // Requests of the page and of its service worker alike.
  context.on('response', (response: Response) => {
    visit.requests += 1
    if (response.status() >= 400) visit.failures.push(`${response.status()} ${response.url()}`)
  })
  try {
    await context.addInitScript(markNotAutomated)
    const page = await context.newPage()
    await page.goto(path)
    await expect(page.locator(ready).first(), `visit ${index}: ${path}`).toBeVisible({ timeout: 30_000 })
    // The service worker is active once its precache is complete.
    await expect
      .poll(
        () =>
          page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? ''),
        {
          message: `visit ${index}: ${path}, service worker; failed: ${visit.failures.join(', ')}`,
          timeout: 30_000,
        },
      )
      .toBe('activated')
  } finally {
    await context.close()
  }
  return visit
}

test('thirty first visits from one address within a minute all load and run', async ({
  browser,
  baseURL,
}) => {
  // Each visit downloads the whole app; on a loaded 2-core machine that takes a while.
  test.setTimeout(300_000)
  const visits: Visit[] = []
  let next = 0
  const started = Date.now()
  await Promise.all(
    Array.from({ length: AT_ONCE }, async () => {
      while (next < VISITS) visits.push(await firstVisit(browser, baseURL!, next++))
    }),
  )
  const seconds = Math.round((Date.now() - started) / 1000)
  const requests = visits.reduce((sum, visit) => sum + visit.requests, 0)
  test
    .info()
    .annotations.push({ type: 'visits', description: `${VISITS} in ${seconds} s, ${requests} requests` })

  expect(visits).toHaveLength(VISITS)
  expect(visits.flatMap((visit) => visit.failures)).toEqual([])
  // The precache is real: each first visit fetched the app's files (the old limit was 600 a minute).
  expect(requests).toBeGreaterThan(600)
})

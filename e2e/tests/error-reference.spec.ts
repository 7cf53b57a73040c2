import { expect, test } from '../support/fixtures'
import { expectAccessible, screenshotScreen, useGerman } from './auth-support'
import { createSignedInUser, pagesWithoutSessionCookie, signInAs } from './circles-support'

// Issue 25: every answer carries `x-request-id`, the id the server's log line for that request has
// (docs/decisions/0042). When a circles page cannot load, its error state shows that id small, so a
// person's report to support can be found in the log. The server's real answer is turned into a failure
// on its way to the page (the server does not fail on demand); its request id is the server's own.

test('a circles page that cannot load shows the request id for support, in English and German', async ({
  page,
  request,
  axe,
}) => {
  const ada = await createSignedInUser(request, 'error-ref-ada', 'Ada Reference')
  const ids: string[] = []
  await page.route(/\/api\/circles(\?.*)?$/, async (route) => {
    const real = await route.fetch()
    const id = real.headers()['x-request-id']!
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    ids.push(id)
    await route.fulfill({
      status: 500,
      headers: { 'content-type': 'application/json', 'x-request-id': id },
      body: JSON.stringify({ message: 'An error occurred', code: 'INTERNAL_ERROR' }),
    })
  })
  await signInAs(page, ada)
  await pagesWithoutSessionCookie(page)
  await page.goto('/circles')

  const alert = page.getByRole('alert').filter({ hasText: 'An error occurred' })
  await expect(alert).toBeVisible({ timeout: 20_000 })
  // The id shown is the last attempt's (the page retried a 5xx twice).
  await expect(alert.getByText('Reference for support:')).toBeVisible()
  // (Polled with the list: the live connection's start may ask once more, and the newest answer is shown.)
  await expect.poll(async () => (await alert.locator('code').textContent()) === ids.at(-1)).toBe(true)
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await expectAccessible(page, axe)
    await screenshotScreen(page, `error-reference-en-${width}`)
  }

  await useGerman(page)
  await page.reload()
  const alarm = page.getByRole('alert').filter({ hasText: 'Kennung für den Support:' })
  await expect(alarm).toBeVisible({ timeout: 20_000 })
  await expect.poll(async () => (await alarm.locator('code').textContent()) === ids.at(-1)).toBe(true)
  await screenshotScreen(page, 'error-reference-de-390')
})

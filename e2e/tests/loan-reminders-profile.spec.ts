import { expect, test } from '../support/fixtures'
import { expectAccessible, screenshotScreen, toast, useGerman } from './auth-support'
import { createSignedInUser, signInAs } from './circles-support'

// Issue 26 (docs/decisions/0049): the lending notice switches and the Calendar card on /profile against
// the real server: Ada makes a calendar link, fetches the feed it names, makes a new one (the old one is
// gone), turns it off; the app reports her browser's time zone. English and German, 1280 and 390 px.

test('the calendar link and the lending notice switches on /profile', async ({ page, request, axe }) => {
  const ada = await createSignedInUser(request, 'calendar-ada', 'Ada Calendar')
  await page.setViewportSize({ width: 1280, height: 900 })
  await signInAs(page, ada)
  await page.goto('/profile')
  await expect(
    page.getByLabel('Reminders before a return date, and when something I borrowed or lent is overdue'),
  ).toBeChecked()
  await page.getByRole('button', { name: 'Make a calendar link' }).click()
  // The same words as the new link's notice below: closed here, so that one is told apart (a toast
  // lasts 5 s, and the screenshots between may take less).
  const made = toast(page, 'success', 'Your new calendar link is ready.')
  await made.getByRole('button', { name: 'Close toast' }).click()
  await expect(made).toHaveCount(0)
  const field = page.getByLabel('Your private calendar link')
  await expect(field).toHaveValue(/\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
  const first = await field.inputValue()
  const feed = await request.get(new URL(first).pathname)
  expect(feed.status()).toBe(200)
  expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8')
  expect(await feed.text()).toMatch(/^BEGIN:VCALENDAR\r\n/)

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await expectAccessible(page, axe)
    await screenshotScreen(page, `calendar-profile-en-${width}`)
  }

  await page.getByRole('button', { name: 'New link' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'New link' }).click()
  await expect(toast(page, 'success', 'Your new calendar link is ready.')).toBeVisible()
  await expect(field).not.toHaveValue(first)
  expect((await request.get(new URL(first).pathname)).status()).toBe(404)

  // The browser's time zone reached the account.
  const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)
  await expect
    .poll(async () => {
      const me = await request.get('/api/users/me/time-zone', {
        headers: { Authorization: `Bearer ${ada.token}` },
      })
      return (await me.json()) as unknown
    })
    .toEqual({ timeZone: zone })

  await useGerman(page)
  await page.reload()
  await expect(page.getByRole('button', { name: 'Neuer Link' })).toBeVisible()
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await screenshotScreen(page, `calendar-profile-de-${width}`)
  }
  await page.getByRole('button', { name: 'Ausschalten' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Ausschalten' }).click()
  await expect(page.getByText('Der Kalender-Link ist ausgeschaltet.').first()).toBeVisible()
})

// Issue 27, labels (docs/decisions/0052): a circle's printable QR label sheet, a label's QR code decoded
// from the rendered page, and where its link leads: a member to the item, a visitor through sign-in to the
// item, a non-member to the item page's 'not found'. Real server, real API, no mocks.
import type { Locator } from '@playwright/test'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { expect, test } from '../support/fixtures'
import { expectAccessible, logIn, PASSWORD, screenshotScreen, useGerman } from './auth-support'
import { createCircle, createSignedInUser, joinCircle, signInAs } from './circles-support'
import { createItem, secondBrowser } from './handovers-support'

/** What the label's QR code holds, read from its pixels as a phone's camera would. */
async function decode(label: Locator): Promise<string | undefined> {
  const image = PNG.sync.read(await label.locator('svg').screenshot())
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data
}

test('a circle prints its QR labels; a label leads members to the item and nobody else', async ({
  page,
  request,
  browser,
  axe,
  baseURL,
}) => {
  test.setTimeout(180_000)
  const ada = await createSignedInUser(request, 'labels-ada', 'Ada Admin')
  const ben = await createSignedInUser(request, 'labels-ben', 'Ben Member')
  const otto = await createSignedInUser(request, 'labels-otto', 'Otto Outsider')
  const circleId = await createCircle(request, ada, { name: 'Workshop' })
  await joinCircle(request, circleId, ada, ben)
  const ladderId = await createItem(request, ada, circleId, { name: 'Ladder' })
  await createItem(request, ada, circleId, { name: 'Cordless drill' })

  await signInAs(page, ada)
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`/circle/${circleId}/items`)
  await page.getByRole('link', { name: 'Print labels' }).click()
  await expect(page).toHaveURL(new RegExp(`/circles/${circleId}/labels$`))
  await expect(page.getByRole('heading', { level: 1, name: 'Labels for Workshop' })).toBeVisible()
  const labels = page.getByTestId('item-label')
  await expect(labels).toHaveCount(2)
  const ladder = labels.filter({ hasText: 'Ladder' })
  const code = (await ladder.getAttribute('data-code')) ?? ''
  expect(code).toMatch(/^[2-9A-HJKMNP-TV-Z]{8}$/)
  await expect(ladder.getByText(code, { exact: true })).toBeVisible()
  await expect(page.getByText('2 labels on 1 sheet')).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'labels-en-1280')

  // The QR code, decoded from the page: the app's link for the code, nothing else.
  const link = await decode(ladder)
  expect(link).toBe(`${new URL(baseURL!).origin}/i/${code}`)

  // Another sheet: US Letter, 3 × 10 labels of 2.625 × 1 in.
  await page.getByLabel('Label sheet', { exact: true }).selectOption('letter-3x10')
  const sheet = page.getByTestId('label-sheet')
  await expect(sheet).toHaveAttribute('data-sheet', 'letter-3x10')
  const box = await sheet.boundingBox()
  expect(Math.round(box!.width)).toBe(816) // 8.5 in at 96 px per inch
  const first = await labels.first().boundingBox()
  expect(Math.round(first!.width)).toBe(252) // 2.625 in
  expect(Math.round(first!.height)).toBe(96) // 1 in
  expect(await decode(labels.filter({ hasText: 'Ladder' }))).toBe(link)

  // A sheet with three labels used goes through again from the fourth (row 2, column 1): one inch lower.
  await page.getByLabel('Start at label').selectOption('4')
  const moved = await labels.first().boundingBox()
  expect(Math.round(moved!.y - box!.y)).toBe(144) // 0.5 in margin + 1 in
  // The ladder left out, then taken back.
  await page.locator('summary', { hasText: 'Items on the sheet' }).click()
  await page.getByRole('checkbox', { name: 'Ladder' }).uncheck()
  await expect(labels).toHaveCount(1)
  await expect(page.getByText('(1 of 2)')).toBeVisible()
  await page.getByRole('checkbox', { name: 'Ladder' }).check()
  await page.getByLabel('Start at label').selectOption('1')

  // Printed: only the sheet, no app chrome, on Letter paper from the page's own @page rule.
  await page.emulateMedia({ media: 'print' })
  await expect(page.getByRole('banner')).toBeHidden()
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden()
  await expect(page.getByRole('heading', { level: 1 })).toBeHidden()
  await expect(labels).toHaveCount(2)
  await expect(labels.first()).toBeVisible()
  const printed = await sheet.boundingBox()
  expect(Math.round(printed!.x)).toBe(0)
  expect(Math.round(printed!.y)).toBe(0)
  await screenshotScreen(page, 'labels-print-en-1280')
  const pdf = await page.pdf({ preferCSSPageSize: true })
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-')
  // One page of US Letter: 612 × 792 pt.
  expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 612 792\]/)
  expect(pdf.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(1)
  await page.emulateMedia({ media: 'screen' })

  // The item page's 'Print label': on paper only this item's label.
  await page.goto(`/items/${ladderId}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Ladder' })).toBeVisible()
  await expect(page.getByRole('complementary').getByText(code, { exact: true })).toBeVisible()
  await page.evaluate(() => {
    ;(window as unknown as { printed: number }).printed = 0
    window.print = () => void ((window as unknown as { printed: number }).printed += 1)
  })
  await page.getByRole('button', { name: 'Print label' }).click()
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1)
  await page.emulateMedia({ media: 'print' })
  await expect(page.getByRole('heading', { level: 1, name: 'Ladder' })).toBeHidden()
  const single = page.getByTestId('print-label')
  await expect(single).toBeVisible()
  expect(await decode(single)).toBe(link)
  await screenshotScreen(page, 'item-label-print-en-1280')
  await page.emulateMedia({ media: 'screen' })

  // Ben, a member, scans it: the item's page.
  const member = await secondBrowser(browser, baseURL!)
  await signInAs(member.page, ben)
  await member.page.goto(link!)
  await expect(member.page).toHaveURL(new RegExp(`/items/${ladderId}$`))
  await expect(member.page.getByRole('heading', { level: 1, name: 'Ladder' })).toBeVisible()
  await member.context.close()

  // Signed out: the sign-in page first, never the item; after signing in, the item.
  const visitor = await secondBrowser(browser, baseURL!)
  await visitor.page.goto(link!)
  await expect(visitor.page).toHaveURL(/\/login\?returnUrl=/)
  await expect(visitor.page.getByText('Ladder')).toHaveCount(0)
  await expect(visitor.page.getByRole('main').locator('button[type="submit"]').first()).toBeEnabled()
  await logIn(visitor.page, ben.user.email, PASSWORD)
  await expect(visitor.page).toHaveURL(new RegExp(`/items/${ladderId}$`))
  await expect(visitor.page.getByRole('heading', { level: 1, name: 'Ladder' })).toBeVisible()
  await visitor.context.close()

  // Otto, signed in but not in the circle: the item page's 'not found', never the item.
  const outsider = await secondBrowser(browser, baseURL!)
  await signInAs(outsider.page, otto)
  await outsider.page.goto(link!)
  await expect(
    outsider.page.getByRole('heading', { name: 'This item does not exist, or it is not shared with you.' }),
  ).toBeVisible()
  await expect(outsider.page.getByText('Ladder')).toHaveCount(0)
  await expectAccessible(outsider.page, axe)
  await outsider.context.close()

  // The sheet on a phone, and in German.
  await page.goto(`/circles/${circleId}/labels`)
  await expect(labels).toHaveCount(2)
  await page.setViewportSize({ width: 390, height: 844 })
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'labels-en-390')
})

test('the label sheet in German, at 1280 and 390 px', async ({ page, request, axe }) => {
  const ada = await createSignedInUser(request, 'labels-de', 'Ada Admin')
  const circleId = await createCircle(request, ada, { name: 'Werkstatt' })
  await createItem(request, ada, circleId, { name: 'Leiter' })
  await useGerman(page)
  await signInAs(page, ada)
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.goto(`/circles/${circleId}/labels`)
  await expect(page.getByRole('heading', { level: 1, name: 'Etiketten für Werkstatt' })).toBeVisible()
  await expect(page.getByTestId('item-label')).toHaveCount(1)
  await expect(page.getByText('1 Etikett auf 1 Bogen')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Drucken' })).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'labels-de-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'labels-de-390')
})

import type { Page } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import { expectAccessible, screenshotScreen, useGerman } from './auth-support'
import { createCircle, createSignedInUser, joinCircle, signInAs } from './circles-support'
import { createItem, requestHandover } from './handovers-support'

// Issue 23: search, filters and order of the items lists, kept in the URL, against the real server.

const cards = (page: Page) => page.getByRole('main').getByRole('article')

test('search, filter and sort on /items and a circle’s items; a link, a reload and Back keep them', async ({
  page,
  request,
  axe,
}) => {
  test.setTimeout(120_000)
  const ida = await createSignedInUser(request, 'search-ida', 'Ida Search')
  const ben = await createSignedInUser(request, 'search-ben', 'Ben Borrow')
  const circleId = await createCircle(request, ida, { name: 'Werkstatt Süd' })
  await joinCircle(request, circleId, ida, ben)
  const drill = await createItem(request, ida, circleId, {
    name: 'Cordless drill',
    description: 'Two batteries',
  })
  await createItem(request, ida, circleId, { name: 'Ladder', description: 'Aluminium, 3 m' })
  await createItem(request, ida, circleId, { name: 'Hedge trimmer', description: 'Cordless, 18 V' })
  await createItem(request, ben, circleId, { name: 'Board game', description: 'Settlers' })
  await requestHandover(request, ida, { itemId: drill, receiverId: ben.user.id })
  await signInAs(page, ida)

  await page.goto('/items')
  const status = page.getByRole('search').getByRole('status')
  await expect(status).toHaveText('3 items')
  await expect(cards(page)).toHaveCount(3)

  // Words: found in the name or the description; the URL follows the typing.
  await page.getByRole('searchbox', { name: 'Search items' }).fill('cordless')
  await expect(page).toHaveURL(/\/items\?q=cordless$/)
  await expect(status).toHaveText('2 items match')
  await expect(cards(page)).toHaveCount(2)

  // A filter and an order: each a step in the history.
  await page.getByRole('combobox', { name: 'State' }).selectOption({ label: 'Handover pending' })
  await expect(page).toHaveURL(/\/items\?q=cordless&state=pending$/)
  await expect(status).toHaveText('1 item matches')
  await expect(cards(page)).toHaveText([/Cordless drill/])
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Name (A–Z)' })
  await expect(page).toHaveURL(/\/items\?q=cordless&state=pending&sort=name$/)

  // A reload keeps all of it.
  await page.reload()
  await expect(page.getByRole('searchbox')).toHaveValue('cordless')
  await expect(page.getByRole('combobox', { name: 'State' })).toHaveValue('pending')
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('name')
  await expect(cards(page)).toHaveText([/Cordless drill/])
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await expectAccessible(page, axe)
    await screenshotScreen(page, `items-search-en-${width}`)
  }
  await page.setViewportSize({ width: 1280, height: 900 })

  // To the item and Back: the same search. Back again undoes the order, then the filter.
  await cards(page)
    .getByRole('link', { name: /Cordless drill/ })
    .click()
  await expect(page.getByRole('heading', { level: 1, name: 'Cordless drill' })).toBeVisible()
  await page.goBack()
  await expect(page).toHaveURL(/\/items\?q=cordless&state=pending&sort=name$/)
  await expect(page.getByRole('searchbox')).toHaveValue('cordless')
  await expect(cards(page)).toHaveText([/Cordless drill/])
  await page.goBack()
  await expect(page).toHaveURL(/\/items\?q=cordless&state=pending$/)
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('newest')
  await page.goBack()
  await expect(page).toHaveURL(/\/items\?q=cordless$/)
  await expect(status).toHaveText('2 items match')

  // Everyone's items in my circles, then by a member, on the circle's page: a link carries it.
  await page.getByRole('searchbox').fill('')
  await page.getByRole('combobox', { name: 'Held by' }).selectOption({ label: 'Anyone' })
  await expect(status).toHaveText('4 items match')
  await page.goto(`/circle/${circleId}/items?holder=${ben.user.id}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Items of Werkstatt Süd' })).toBeVisible()
  await expect(page.getByRole('combobox', { name: 'Held by' })).toHaveValue(ben.user.id)
  await expect(cards(page)).toHaveText([/Board game/])
  await page.getByRole('combobox', { name: 'Held by' }).selectOption({ label: 'Anyone' })
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Name (A–Z)' })
  await expect(page).toHaveURL(new RegExp(`/circle/${circleId}/items\\?sort=name$`))
  await expect(cards(page)).toHaveText([/Board game/, /Cordless drill/, /Hedge trimmer/, /Ladder/])
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await expectAccessible(page, axe)
    await screenshotScreen(page, `items-search-circle-en-${width}`)
  }
})

test('no match: the empty state clears the filters; a bad link shows the list; the API says what is wrong', async ({
  page,
  request,
  axe,
}) => {
  test.setTimeout(90_000)
  const olli = await createSignedInUser(request, 'search-olli', 'Olli Owner')
  const circleId = await createCircle(request, olli, { name: 'Garden Club' })
  await createItem(request, olli, circleId, { name: 'Hedge trimmer' })
  await signInAs(page, olli)

  await page.goto('/items?q=zebra&sort=name')
  await expect(page.getByRole('heading', { name: 'No items match' })).toBeVisible()
  await expect(page.getByRole('search').getByRole('status')).toHaveText('0 items match')
  await expectAccessible(page, axe)
  await page.getByRole('main').getByRole('button', { name: 'Clear filters' }).last().click()
  await expect(page).toHaveURL(/\/items\?sort=name$/)
  await expect(cards(page)).toHaveText([/Hedge trimmer/])
  await expect(page.getByRole('searchbox')).toHaveValue('')

  // An edited link with values the page does not know: they are dropped, the list shows.
  await page.goto('/items?state=lost&sort=oldest&holder=you')
  await expect(cards(page)).toHaveText([/Hedge trimmer/])
  await expect(page.getByRole('combobox', { name: 'State' })).toHaveValue('')

  // The API itself answers a bad value with 400 and a message naming the parameter.
  const bad = await request.get('/api/items?state=lost', {
    headers: { Authorization: `Bearer ${olli.token}` },
  })
  expect(bad.status()).toBe(400)
  expect((await bad.json()).message).toBe(
    'The state filter must be one of: available, pending, on-loan, handed-over',
  )
})

test('German: search and the empty state', async ({ page, request, axe }) => {
  test.setTimeout(90_000)
  const jana = await createSignedInUser(request, 'search-jana', 'Jana Jäger')
  const circleId = await createCircle(request, jana, { name: 'Nachbarschaft' })
  await createItem(request, jana, circleId, { name: 'Bohrmaschine', description: 'Mit zwei Akkus' })
  await createItem(request, jana, circleId, { name: 'Leiter' })
  await useGerman(page)
  await signInAs(page, jana)

  await page.goto('/items?q=akku')
  await expect(page.getByRole('searchbox', { name: 'Gegenstände suchen' })).toHaveValue('akku')
  await expect(page.getByRole('search').getByRole('status')).toHaveText('1 Gegenstand passt')
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await expectAccessible(page, axe)
    await screenshotScreen(page, `items-search-de-${width}`)
  }
  await page.getByRole('searchbox').fill('zebra')
  await expect(page.getByRole('heading', { name: 'Keine passenden Gegenstände' })).toBeVisible()
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await expectAccessible(page, axe)
    await screenshotScreen(page, `items-search-empty-de-${width}`)
  }
})

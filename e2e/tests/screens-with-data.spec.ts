import type { Page } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import { logIn, openForm, screenshotScreen } from './auth-support'
import {
  createCircle,
  createSignedInUser,
  joinCircle,
  pagesWithoutSessionCookie,
  signInAs,
} from './circles-support'
import { createItem, requestHandover } from './handovers-support'

// Issue 27, docs/decisions/0068: a signed-in screen arrives rendered by the server with its data, for the
// session the page request carries in its cookie; the app takes it over without asking for it again.

const noScripts = (page: Page) => page.route('**/assets/*.js', (route) => route.abort())

/** The session cookie as the browser holds it. */
async function sessionCookie(page: Page) {
  return (await page.context().cookies()).find((cookie) => cookie.name === 'circles_session')
}

test('a sign-in leaves the session cookie; the item screen then comes with its data and the app takes it over', async ({
  page,
  request,
  axe,
}) => {
  const olga = await createSignedInUser(request, 'ssr-owner', 'Olga Owner')
  const circleId = await createCircle(request, olga, { name: 'Linden Street' })
  const itemId = await createItem(request, olga, circleId, {
    name: 'Cordless drill',
    description: 'With two batteries and a case',
  })

  // A real sign-in, through the form.
  await openForm(page, '/login')
  await logIn(page, olga.user.email, 'e2e-Correct-horse-7')
  await page.waitForURL('**/dashboard')
  const cookie = await sessionCookie(page)
  expect(cookie).toMatchObject({ sameSite: 'Strict', path: '/', httpOnly: false })
  // It lives as long as the token: a day without "remember me".
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(23 * 3600 * 1000)

  // No script at all: the HTML alone shows the item, and its buttons wait for the app.
  await noScripts(page)
  await page.goto(`/items/${itemId}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Cordless drill' })).toBeVisible()
  await expect(page.getByText('With two batteries and a case')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Print label' })).toBeDisabled()
  await page.unroute('**/assets/*.js')

  // With the app: nothing of the screen is asked for again, and it works.
  const asked: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith(`/api/items/${itemId}`)) asked.push(request.url())
  })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.goto(`/items/${itemId}`)
  await expect(page.getByRole('button', { name: 'Print label' })).toBeEnabled()
  await expect(page.getByRole('heading', { level: 1, name: 'Cordless drill' })).toBeVisible()
  expect(asked).toEqual([])
  expect(errors).toEqual([])
  await axe.expectNoA11yViolations(page)
  await screenshotScreen(page, 'screen-with-data-item-en-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await page.reload()
  await expect(page.getByRole('button', { name: 'Print label' })).toBeEnabled()
  await screenshotScreen(page, 'screen-with-data-item-en-390')

  // What happens next comes live, as on any screen: the page is the app's now.
  await request.put(`/api/items/${itemId}`, {
    data: { name: 'Cordless drill (blue)', description: 'With two batteries and a case' },
    headers: { Authorization: `Bearer ${olga.token}` },
  })
  await page.getByRole('link', { name: 'Items of Linden Street' }).click()
  await expect(page.getByText('Cordless drill (blue)')).toBeVisible()
})

test('signing out takes the cookie along: the next page request shows nobody’s data', async ({
  page,
  request,
}) => {
  const sam = await createSignedInUser(request, 'ssr-signout', 'Sam Signout')
  const circleId = await createCircle(request, sam, { name: 'Sam’s shed' })
  const itemId = await createItem(request, sam, circleId, { name: 'Hedge trimmer' })
  await signInAs(page, sam)
  await page.goto(`/items/${itemId}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Hedge trimmer' })).toBeVisible()
  await page.getByRole('button', { name: 'Log out' }).click()
  await expect(page).not.toHaveURL(/\/items\//)
  expect(await sessionCookie(page)).toBeUndefined()

  await noScripts(page)
  await page.goto(`/items/${itemId}`)
  expect(await page.content()).not.toContain('Hedge trimmer')
})

test('a screen is rendered only with what its person may see', async ({ page, request }) => {
  const owner = await createSignedInUser(request, 'ssr-private-owner', 'Pia Private')
  const circleId = await createCircle(request, owner, { name: 'Private circle' })
  const itemId = await createItem(request, owner, circleId, { name: 'Secret telescope' })
  const outsider = await createSignedInUser(request, 'ssr-outsider', 'Oscar Outsider')
  await signInAs(page, outsider)

  await noScripts(page)
  await page.goto(`/items/${itemId}`)
  expect(await page.content()).not.toContain('Secret telescope')
  await page.unroute('**/assets/*.js')
  await page.goto(`/items/${itemId}`)
  await expect(page.getByText('This item does not exist, or it is not shared with you.')).toBeVisible()
})

test('a circle screen comes with its members and items, in the language of the lang cookie', async ({
  page,
  request,
}) => {
  const admin = await createSignedInUser(request, 'ssr-circle-admin', 'Ada Admin')
  const member = await createSignedInUser(request, 'ssr-circle-member', 'Max Mitglied')
  const circleId = await createCircle(request, admin, {
    name: 'Hausgemeinschaft',
    description: 'Alles im Keller',
  })
  await joinCircle(request, circleId, admin, member)
  await createItem(request, admin, circleId, { name: 'Bohrmaschine' })
  await signInAs(page, member)
  await page.evaluate(() => {
    localStorage.setItem('language', 'de')
    document.cookie = 'lang=de; Path=/; SameSite=Lax'
  })

  await noScripts(page)
  await page.goto(`/circle/${circleId}`)
  await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  await expect(page.getByRole('heading', { level: 1, name: 'Hausgemeinschaft' })).toBeVisible()
  await expect(page.getByText('Bohrmaschine')).toBeVisible()
  await expect(page.getByText('Ada Admin')).toBeVisible()
  await page.unroute('**/assets/*.js')

  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto(`/circle/${circleId}`)
  await expect(page.getByRole('link', { name: /Bohrmaschine/ })).toBeVisible()
  // The app has drawn over it: the frame's mark is gone.
  await expect(page.locator('#root')).not.toHaveAttribute('data-frame')
  await screenshotScreen(page, 'screen-with-data-circle-de-390')
})

test('a long list comes with its first entries; the app adds the rest', async ({ page, request }) => {
  const owner = await createSignedInUser(request, 'ssr-long-list', 'Lena Long')
  const friend = await createSignedInUser(request, 'ssr-long-list-friend', 'Fred Friend')
  const circleId = await createCircle(request, owner, { name: 'Makerspace' })
  await joinCircle(request, circleId, owner, friend)
  // (A person holds at most 10 items on the Personal plan.)
  for (let n = 1; n <= 14; n++) {
    await createItem(request, n % 2 ? owner : friend, circleId, { name: `Tool ${n}` })
  }
  await signInAs(page, owner)
  const tools = page.getByRole('main').getByRole('link', { name: /^Tool \d+/ })

  // The server renders more than fill a screen, not all (docs/decisions/0069).
  await noScripts(page)
  await page.goto(`/circle/${circleId}/items`)
  await expect(tools.first()).toBeVisible()
  await expect(tools).toHaveCount(12)
  await page.unroute('**/assets/*.js')

  await page.goto(`/circle/${circleId}/items`)
  await expect(tools).toHaveCount(14)
  await expect(page.locator('#root')).not.toHaveAttribute('data-frame')
})

test('a lazily loaded part of a rendered screen is taken over once, even when its code comes late', async ({
  page,
  request,
}) => {
  const ida = await createSignedInUser(request, 'ssr-lazy-ida', 'Ida Owner')
  const ben = await createSignedInUser(request, 'ssr-lazy-ben', 'Ben Neighbour')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)
  const ladder = await createItem(request, ida, circleId, { name: 'Ladder' })
  await requestHandover(request, ida, { itemId: ladder, receiverId: ben.user.id })
  await signInAs(page, ben)
  // The answer form's code (loaded only when a request waits) comes a second late, as on a slow network.
  await page.route('**/assets/handover-answer-*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    await route.fallback()
  })

  await page.goto('/dashboard')
  const inbox = page.getByRole('list', { name: 'Waiting for you' })
  await expect(inbox.getByRole('button', { name: 'Accept' })).toBeEnabled()
  // One form: the server's was drawn over, not left beside the app's (docs/decisions/0069).
  await expect(inbox.getByRole('button', { name: 'Accept' })).toHaveCount(1)
  await expect(inbox.getByLabel('Your reply')).toHaveCount(1)
})

test('an address no screen can be rendered for is answered as before, never with an error', async ({
  page,
  request,
}) => {
  const uma = await createSignedInUser(request, 'ssr-odd', 'Uma Unusual')
  await signInAs(page, uma)
  for (const path of ['/items/%', '/circle/%E0%A4%A', '/items/x?q=%ZZ', '/blockchain/item/..%2F..%2Fapi']) {
    // The page's own request context: it sends the browser's cookies, the session's among them.
    const answer = await page.request.get(path)
    // A malformed address is Fastify's 400, as before (error-handler.ts); nothing is a 5xx.
    expect(answer.status(), path).toBeLessThan(500)
    expect(await answer.text(), path).not.toContain('id="circles-screen"')
  }
})

/**
 * Every element of `#root` with all its attributes and its own text, as lines: what a screen is, in a
 * form two renders of it can be compared by.
 */
function screenShape(page: Page): Promise<string[]> {
  return page
    .evaluate(() => {
      const lines: string[] = []
      const walk = (element: Element, depth: number) => {
        // A field's value and an option's selection as they are now (the server writes them as attributes,
        // the app sets them as properties).
        const state =
          element instanceof HTMLInputElement
            ? [`:value="${element.value}"`, `:checked=${element.checked}`]
            : element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement
              ? [`:value="${element.value}"`]
              : element instanceof HTMLOptionElement
                ? [`:selected=${element.selected}`]
                : []
        const attributes = Array.from(element.attributes)
          .filter((attribute) => !['value', 'selected', 'checked'].includes(attribute.name))
          // A style as the browser reads it (the server writes `width:70mm`, the app sets `width: 70mm`).
          .map((attribute) =>
            attribute.name === 'style'
              ? `style="${(element as HTMLElement).style.cssText}"`
              : `${attribute.name}="${attribute.value}"`,
          )
          .concat(state)
          .sort()
          .join(' ')
        // A relative time ('1 second ago') moves on between the two loads; its datetime does not.
        const text = (element.localName === 'time' ? [] : Array.from(element.childNodes))
          .filter((node) => node.nodeType === Node.TEXT_NODE)
          .map((node) => node.textContent?.trim())
          .filter(Boolean)
          .join(' ')
        lines.push(`${'  '.repeat(depth)}<${element.localName} ${attributes}> ${text}`)
        for (const child of Array.from(element.children)) walk(child, depth + 1)
      }
      walk(document.getElementById('root')!, 0)
      return lines
    })
    .then(numberIds)
}

/**
 * Preact numbers `useId`s in render order, which differs between a hydration and a render from scratch:
 * each id is named by where it first appears, so the same screen reads the same either way (that the ids a
 * page refers to are there is `danglingReferences`).
 */
function numberIds(lines: string[]): string[] {
  const names = new Map<string, string>()
  return lines.map((line) =>
    line
      .replace(/\bP\d+-\d+\b/g, (id) => {
        if (!names.has(id)) names.set(id, `id${names.size}`)
        return names.get(id)!
      })
      // A time of day in a text ('checked … 9:01 PM') moves on between the two loads.
      .replace(/\b\d{1,2}:\d{2}( [AP]M)?\b/g, '<time of day>'),
  )
}

/**
 * The labels, descriptions and controls an element refers to by id that are not in the page (a closed
 * dialog renders its title and text only when it opens).
 */
function danglingReferences(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('[aria-labelledby],[aria-describedby],[aria-controls],label[for]'))
      .filter((element) => !element.closest('dialog:not([open])'))
      .flatMap((element) =>
        ['aria-labelledby', 'aria-describedby', 'aria-controls', 'for'].flatMap((name) =>
          (element.getAttribute(name) ?? '')
            .split(/\s+/)
            .filter((id) => id && !document.getElementById(id))
            .map((id) => `${element.localName} ${name}=${id}`),
        ),
      ),
  )
}

/** The screen's shape once it has stopped changing (its parts hydrated, its checks done). */
async function settledShape(page: Page): Promise<string[]> {
  let last: string[] = []
  await expect
    .poll(
      async () => {
        const now = await screenShape(page)
        const same = JSON.stringify(now) === JSON.stringify(last)
        last = now
        return same
      },
      { intervals: [500], timeout: 20_000 },
    )
    .toBe(true)
  return last
}

test('a screen hydrated from the server’s render is, element for element, the screen the app renders itself', async ({
  page,
  request,
}) => {
  // docs/decisions/0070: a hydration keeps the attributes it finds, so the server's render and the app's
  // first render must agree; whatever the app changes after it (a list's rest, a check's result, a
  // button the app has made work) must reach the page too.
  const olga = await createSignedInUser(request, 'hydrate-owner', 'Olga Owner')
  const mia = await createSignedInUser(request, 'hydrate-member', 'Mia Member')
  const circleId = await createCircle(request, olga, { name: 'Hydration Lane' })
  await joinCircle(request, circleId, olga, mia)
  const drill = await createItem(request, olga, circleId, { name: 'Drill', description: 'Red, with a case' })
  const ladder = await createItem(request, olga, circleId, { name: 'Ladder' })
  const confirmed = await requestHandover(request, olga, { itemId: ladder, receiverId: mia.user.id })
  const answered = await request.put(`/api/handovers/${confirmed}/status`, {
    data: { status: 'CONFIRMED' },
    headers: { Authorization: `Bearer ${mia.token}` },
  })
  expect(answered.status(), await answered.text()).toBe(200)
  await requestHandover(request, olga, { itemId: drill, receiverId: mia.user.id })
  await signInAs(page, olga)
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))

  const screens = [
    '/dashboard',
    '/circles',
    `/circle/${circleId}`,
    '/items',
    `/circle/${circleId}/items`,
    `/items/${drill}`,
    `/items/${drill}/handover`,
    `/blockchain/circle/${circleId}`,
  ]
  const hydrated = new Map<string, string[]>()
  /** The ledger's device check takes a while on a busy machine: its result is part of the screen. */
  const checked = async (path: string) => {
    if (path.startsWith('/blockchain'))
      await expect(page.getByTestId('ledger-device-check')).toContainText('Verified on this device', {
        timeout: 30_000,
      })
  }
  for (const path of screens) {
    const response = await page.goto(path)
    expect(await response!.text(), path).toContain('id="circles-screen"')
    await checked(path)
    hydrated.set(path, await settledShape(page))
    // The ids the server wrote are the ones the app refers to (Preact numbers them in render order).
    expect(await danglingReferences(page), path).toEqual([])
  }
  // The same screens rendered by the app alone: the page requests go without the session's cookie.
  await pagesWithoutSessionCookie(page)
  for (const path of screens) {
    const response = await page.goto(path)
    expect(await response!.text(), path).not.toContain('id="circles-screen"')
    await checked(path)
    expect(await settledShape(page), path).toEqual(hydrated.get(path))
  }
  expect(errors).toEqual([])
})

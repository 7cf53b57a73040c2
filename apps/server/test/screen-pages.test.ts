import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, createCircle, type SignedIn, signedIn } from './support/circles'
import { createTestApp, type TestApp } from './support/test-app'

// docs/decisions/0068: a signed-in screen's page, rendered on request with its data for the session in
// its cookie. The build's renderer is the web app's (e2e/tests/screens-with-data.spec.ts); here a
// renderer of the same shape asks for the item the way the app does, through the server's own routes.

/** The renderer the build leaves in prerender/ssr/: the item page's name and the answers it used. */
const RENDERER = `
export async function renderScreen({ url, origin, language, user, fetch }) {
  const match = /^\\/items\\/([^/?]+)/.exec(url)
  if (!match) return undefined
  if (match[1] === 'broken') throw new Error('renderer failed')
  if (match[1] === 'slow') await new Promise((resolve) => setTimeout(resolve, 3500))
  const answer = await fetch('/api/items/' + match[1], { headers: { Accept: 'application/json' } })
  if (!answer.ok) return undefined
  const { item } = await answer.json()
  return {
    html: '<main><h1>' + item.name.replace(/</g, '&lt;') + '</h1><p>' + origin + ' ' + language + ' ' + user.name +
      '</p><button type="button">Hand over</button><input type="search" value=""></main>',
    title: item.name + ' · Circles',
    queries: { queries: [{ queryKey: ['items', 'detail', item.id], state: { data: item } }], mutations: [] },
    parts: ['handover-answer'],
  }
}
`

const TEMPLATE = (language: string) =>
  `<!doctype html><html lang="${language}"><head><title>__CIRCLES_TITLE__</title>` +
  `<meta name="circles-page-scripts" content="__CIRCLES_PAGE_SCRIPTS__"></head>` +
  `<body><div id="root" data-frame=""><!--circles-screen--></div>\n<!--circles-screen-data-->\n</body></html>`

let t: TestApp
let webDir: string
let owner: SignedIn
let outsider: SignedIn
let itemId: string

const cookieOf = (who: SignedIn) => `circles_session=${who.auth.authorization.slice('Bearer '.length)}`
const page = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers })
const screenData = (html: string) =>
  JSON.parse(/<script type="application\/json" id="circles-screen">(.*)<\/script>/.exec(html)![1]!) as {
    since: string
    userId: string
    queries: { queries: { state: { data: { name: string } } }[] }
    parts: string[]
  }

beforeAll(async () => {
  webDir = await mkdtemp(path.join(os.tmpdir(), 'circles-web-'))
  await writeFile(
    path.join(webDir, 'index.html'),
    '<html><head></head><body><div id="root"></div></body></html>',
  )
  await mkdir(path.join(webDir, 'prerender', 'ssr'), { recursive: true })
  await mkdir(path.join(webDir, 'prerender', 'screen-template'))
  await writeFile(path.join(webDir, 'prerender', 'ssr', 'entry-server.js'), RENDERER)
  for (const language of ['en', 'de']) {
    await writeFile(path.join(webDir, 'prerender', 'screen-template', `${language}.html`), TEMPLATE(language))
  }
  await writeFile(
    path.join(webDir, 'prerender', 'route-preloads.json'),
    JSON.stringify([
      { path: '/items/:itemId', scripts: { en: ['/assets/item-1.js'], de: ['/assets/item-1.js'] } },
    ]),
  )
  t = await createTestApp({ webDir })
  owner = await signedIn(t, { name: 'Olga Owner' })
  outsider = await signedIn(t, { name: 'Otto Outsider' })
  const circle = await createCircle(t, owner)
  const member = await signedIn(t, { name: 'Mia Member' })
  await addMember(t, owner, circle.id, member)
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/items',
    headers: owner.auth,
    payload: { name: 'Drill <b>$& "big"</b>', description: 'Two batteries', circleId: circle.id },
  })
  itemId = created.json().item.id
})
afterAll(async () => {
  await t.close()
  await rm(webDir, { recursive: true, force: true })
})

describe('screens rendered with their data', () => {
  it('renders the screen for the session in the cookie, kept nowhere', async () => {
    const res = await page(`/items/${itemId}`, {
      cookie: `lang=de; ${cookieOf(owner)}`,
      host: 'circles.test',
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('private, no-store')
    expect(res.headers.vary).toBe('Cookie, Accept-Language')
    expect(res.headers.etag).toBeUndefined()
    // The name as it is, escaped once: no `$&` expanded, no markup of its own.
    expect(res.body).toContain('<h1>Drill &lt;b>$& "big"&lt;/b></h1>')
    expect(res.body).toContain('<title>Drill &lt;b&gt;$&amp; &quot;big&quot;&lt;/b&gt; · Circles</title>')
    // The request's own origin and language, the session's person.
    expect(res.body).toContain('<p>http://circles.test de Olga Owner</p>')
    expect(res.body).toContain('<meta name="circles-page-scripts" content="/assets/item-1.js">')
    // Nothing to press or type into before the app has hydrated it (marked, so the app enables it then).
    expect(res.body).toContain(
      '<button disabled data-inert="" type="button">Hand over</button><input disabled data-inert="" type="search"',
    )
    const data = screenData(res.body)
    expect(data.userId).toBe(owner.user.id)
    expect(data.queries.queries[0]!.state.data.name).toBe('Drill <b>$& "big"</b>')
    // Its lazy parts, for the app to load before it draws over it.
    expect(data.parts).toEqual(['handover-answer'])
    expect(Date.parse(data.since)).toBeLessThan(Date.now())
    // No `<` in the data: the name's `</b>` cannot end the script element.
    expect(/id="circles-screen">([^]*?)<\/script>/.exec(res.body)![1]).not.toContain('<')
  })

  it('sends the page as before without the cookie, with a session that is no longer one, or on HEAD', async () => {
    const without: Record<string, string>[] = [
      {},
      { cookie: 'circles_session=not-a-token' },
      { cookie: 'circles_session=' },
    ]
    for (const headers of without) {
      const res = await page(`/items/${itemId}`, headers)
      expect(res.statusCode).toBe(200)
      expect(res.headers['cache-control']).toBe('no-cache')
      expect(res.body).toContain('<div id="root"></div>')
      expect(res.body).not.toContain('Drill')
    }
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/items/${itemId}`,
      headers: { cookie: cookieOf(owner) },
    })
    expect(head.headers['cache-control']).toBe('no-cache')
  })

  it('renders nothing of a screen the session may not see: the same access checks as the API', async () => {
    const res = await page(`/items/${itemId}`, { cookie: cookieOf(outsider) })
    expect(res.headers['cache-control']).toBe('no-cache')
    expect(res.body).not.toContain('Drill')
  })

  it('sends the page without its data when the renderer fails, and never the API a page', async () => {
    const broken = await page('/items/broken', { cookie: cookieOf(owner) })
    expect(broken.statusCode).toBe(200)
    expect(broken.body).not.toContain('circles-screen')
    // A path of no screen with data, and the API itself, as before.
    expect((await page('/about', { cookie: cookieOf(owner) })).headers['cache-control']).toBe('no-cache')
    expect((await page('/api/nothing', { cookie: cookieOf(owner) })).statusCode).toBe(404)
  })

  it('does not wait for a render that takes longer than 3 s: the page goes without its data', async () => {
    const started = Date.now()
    const slow = await page('/items/slow', { cookie: cookieOf(owner) })
    expect(Date.now() - started).toBeLessThan(3400)
    expect(slow.headers['cache-control']).toBe('no-cache')
  })

  it('never reads the cookie for the API: a call with it alone is not signed in', async () => {
    const res = await page(`/api/items/${itemId}`, { cookie: cookieOf(owner) })
    expect(res.statusCode).toBe(401)
  })

  it('renders concurrent requests one at a time, each for its own session', async () => {
    const other = await signedIn(t, { name: 'Second Session' })
    const circle = await createCircle(t, other)
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/items',
      headers: other.auth,
      payload: { name: 'Ladder', circleId: circle.id },
    })
    const ladder = created.json().item.id as string
    const pages = await Promise.all([
      page(`/items/${itemId}`, { cookie: cookieOf(owner) }),
      page(`/items/${ladder}`, { cookie: cookieOf(other) }),
      page(`/items/${ladder}`, { cookie: cookieOf(owner) }),
    ])
    expect(pages[0]!.body).toContain('Olga Owner')
    expect(pages[1]!.body).toContain('<h1>Ladder</h1>')
    expect(pages[1]!.body).toContain('Second Session')
    expect(pages[2]!.body).not.toContain('Ladder')
  })

  it('answers any cookie and any path of a screen with a page, never a 5xx (fuzzed)', async () => {
    const token = cookieOf(owner).slice('circles_session='.length)
    const cookie = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.constant(token).map((valid) => `${valid.slice(0, -3)}abc`),
      fc.string({ maxLength: 40 }).map((tail) => `${token}${tail}`),
    )
    const path = fc.oneof(
      fc.constant(`/items/${itemId}`),
      fc
        .string({ unit: 'grapheme-ascii', maxLength: 60 })
        .map((tail) => `/items/${encodeURIComponent(tail)}`),
      fc.constantFrom(
        '/items/%',
        '/items/%E0%A4%A',
        `/items/${itemId}?q=%ZZ`,
        `/items/${itemId}/../../api/items`,
      ),
    )
    await fc.assert(
      fc.asyncProperty(cookie, path, async (value, url) => {
        // A Cookie header carries printable ASCII but `;`: what a browser could send.
        const printable = [...value].filter((char) => char >= ' ' && char <= '~' && char !== ';')
        const header = `circles_session=${printable.join('')}`
        const res = await page(url, { cookie: header })
        expect(res.statusCode).toBeLessThan(500)
        if (res.body.includes('circles-screen')) expect(header).toBe(cookieOf(owner))
      }),
      { seed: 68, numRuns: 60 },
    )
  })
})

import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { io as connect } from 'socket.io-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createUser } from './support/factories'
import { type TestApp, createTestApp } from './support/test-app'

let t: TestApp
let webDir: string
const BIG_CHUNK = `export const words = ${JSON.stringify(Array.from({ length: 800 }, (_, i) => `word${i}`))}\n`
beforeAll(async () => {
  webDir = await mkdtemp(path.join(os.tmpdir(), 'circles-web-'))
  await mkdir(path.join(webDir, 'assets'))
  await writeFile(
    path.join(webDir, 'index.html'),
    '<!doctype html><html><head><title>Circles</title></head><body><div id="root"></div></body></html>',
  )
  await writeFile(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)')
  // As apps/web/scripts/precompress.mjs leaves a big chunk: brotli and gzip copies beside it.
  await writeFile(path.join(webDir, 'assets', 'big-abc123.js'), BIG_CHUNK)
  await writeFile(path.join(webDir, 'assets', 'big-abc123.js.br'), brotliCompressSync(BIG_CHUNK))
  await writeFile(path.join(webDir, 'assets', 'big-abc123.js.gz'), gzipSync(BIG_CHUNK))
  await mkdir(path.join(webDir, '.vite'))
  await writeFile(path.join(webDir, '.vite', 'manifest.json'), '{}')
  for (const language of ['en', 'de']) {
    await mkdir(path.join(webDir, 'prerender', language), { recursive: true })
    for (const page of ['index', 'about']) {
      await writeFile(
        path.join(webDir, 'prerender', language, `${page}.html`),
        `<!doctype html><html lang="${language}"><head><title>${page}</title></head><body>${language}:${page} <a href="mailto:__CIRCLES_CONTACT_EMAIL__">__CIRCLES_CONTACT_EMAIL__</a></body></html>`,
      )
    }
  }
  for (const language of ['en', 'de']) {
    await mkdir(path.join(webDir, 'prerender', language, 'first-visit'), { recursive: true })
    for (const [folder, body] of [
      ['', 'login form'],
      ['first-visit', 'login form with consent dialog'],
    ] as const) {
      await writeFile(
        path.join(webDir, 'prerender', language, folder, 'login.html'),
        `<!doctype html><html lang="${language}"><head><title>login</title></head><body>${language}:${body}</body></html>`,
      )
    }
  }
  for (const language of ['en', 'de']) {
    await mkdir(path.join(webDir, 'prerender', language, 'screens'), { recursive: true })
    await writeFile(
      path.join(webDir, 'prerender', language, 'screens', 'circles.html'),
      `<!doctype html><html lang="${language}"><head><title>circles</title></head><body><div id="root" data-frame="">${language}:circles frame</div></body></html>`,
    )
  }
  await writeFile(
    path.join(webDir, 'prerender', 'route-preloads.json'),
    JSON.stringify([
      {
        path: '/items/:itemId',
        scripts: { en: ['/assets/item-page-1.js'], de: ['/assets/item-page-1.js', '/assets/de-items-1.js'] },
      },
    ]),
  )
  t = await createTestApp({ webDir, env: { CONTACT_EMAIL: 'privacy@circles.test', STAGING: 'on' } })
})
afterAll(async () => {
  await t.close()
  await rm(webDir, { recursive: true, force: true })
})

describe('health and readiness', () => {
  it('answers health and ready with the database', async () => {
    expect((await t.app.inject('/api/health')).json()).toEqual({ status: 'ok' })
    const ready = await t.app.inject('/api/ready')
    expect(ready.statusCode).toBe(200)
    // With PostgreSQL it also reports the socket.io adapter's LISTEN connection (issue 22).
    expect(ready.json()).toEqual({
      status: 'ready',
      database: true,
      ...(process.env.DATABASE_URL && { realtime: true }),
    })
  })
})

describe('serving the SPA', () => {
  it('serves index.html for deep links, uncached', async () => {
    for (const url of ['/reset-password?token=x', '/circles/123', '/verify']) {
      const res = await t.app.inject(url)
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toMatch(/text\/html/)
      expect(res.body).toContain('<div id="root">')
      expect(res.headers['cache-control']).toBe('no-cache')
    }
  })

  it('serves prerendered public pages in the language of the lang cookie, else of the browser', async () => {
    const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers })
    expect((await get('/')).body).toContain('en:index')
    expect((await get('/', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' })).body).toContain('de:index')
    expect((await get('/about', { cookie: 'x=1; lang=de', 'accept-language': 'en' })).body).toContain(
      'de:about',
    )
    expect((await get('/about/', { cookie: 'lang=en', 'accept-language': 'de' })).body).toContain('en:about')
    const res = await get('/about?utm=x')
    expect(res.headers.vary).toBe('Cookie, Accept-Language')
    expect(res.headers['cache-control']).toBe('no-cache')
    // Not prerendered: the app shell.
    expect((await get('/dashboard', { cookie: 'lang=de' })).body).toContain('<div id="root">')
  })

  it("sends a signed-in screen's frame in the visitor's language, the same for everybody", async () => {
    const get = (url: string, cookie?: string) => t.app.inject({ url, headers: cookie ? { cookie } : {} })
    expect((await get('/circles')).body).toContain('en:circles frame')
    expect((await get('/circles/', 'lang=de')).body).toContain('de:circles frame')
    const res = await get('/circles?page=2')
    expect(res.headers.vary).toBe('Cookie, Accept-Language')
    expect(res.headers['cache-control']).toBe('no-cache')
    // A screen without a frame, and a frame's path below it, get the app shell.
    expect((await get('/circles/create')).body).toContain('<div id="root"></div>')
    expect((await get('/screens/circles')).body).toContain('<div id="root"></div>')
    expect((await get('/prerender/en/screens/circles.html')).statusCode).toBe(404)
  })

  it("preloads the page's own scripts in the app shell of a screen the app renders", async () => {
    const get = (url: string, cookie?: string) => t.app.inject({ url, headers: cookie ? { cookie } : {} })
    const en = await get('/items/abc')
    expect(en.body).toContain('<link rel="modulepreload" crossorigin href="/assets/item-page-1.js"></head>')
    expect(en.body).toContain('<div id="root"></div>')
    expect(en.headers.vary).toBe('Cookie, Accept-Language')
    expect((await get('/items/abc', 'lang=de')).body).toContain('href="/assets/de-items-1.js"')
    // A path of no route with preloads: the plain shell.
    expect((await get('/loans')).body).not.toContain('modulepreload')
  })

  it('sends the consent dialog inside the page only to a visitor without a consent cookie', async () => {
    const get = (cookie?: string) => t.app.inject({ url: '/login', headers: cookie ? { cookie } : {} })
    expect((await get()).body).toContain('en:login form with consent dialog')
    expect((await get('lang=de')).body).toContain('de:login form with consent dialog')
    expect((await get('lang=de; cc_cookie=%7B%7D')).body).toContain('de:login form</body>')
    expect((await get('my_cc_cookie=1')).body).toContain('with consent dialog')
    expect((await get()).headers.vary).toBe('Cookie, Accept-Language')
    // Pages without a first-visit variant are the same for everybody.
    expect((await t.app.inject('/about')).body).toContain('en:about')
    expect((await t.app.inject('/first-visit/login')).body).toContain('<div id="root">')
  })

  it('puts the runtime config into every page it serves, and never serves HTML files raw', async () => {
    for (const url of ['/', '/about', '/dashboard']) {
      const html = (await t.app.inject(url)).body
      expect(html).toContain(
        '<meta name="circles-config" content="{&quot;contactEmail&quot;:&quot;privacy@circles.test&quot;,&quot;staging&quot;:true}">',
      )
    }
    expect((await t.app.inject('/about')).body).toContain(
      '<a href="mailto:privacy@circles.test">privacy@circles.test</a>',
    )
    expect((await t.app.inject('/index.html')).statusCode).toBe(404)
    expect((await t.app.inject('/prerender/de/about.html')).statusCode).toBe(404)
    expect((await t.app.inject('/.vite/manifest.json')).statusCode).toBe(404)
  })

  it('caches hashed assets for a year and 404s missing ones', async () => {
    const asset = await t.app.inject('/assets/app-abc123.js')
    expect(asset.statusCode).toBe(200)
    expect(asset.headers['cache-control']).toContain('immutable')
    expect((await t.app.inject('/assets/missing.js')).statusCode).toBe(404)
  })

  it('keeps unknown API paths JSON 404, for every method', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/api/does-not-exist' })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND', key: 'notFound' })
    }
  })
})

describe('security headers', () => {
  it('sends a strict CSP and the usual hardening headers', async () => {
    const res = await t.app.inject('/')
    const csp = res.headers['content-security-policy'] as string
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    // Issue 27: WebAssembly (the QR reader) may compile; nothing else is loosened: no eval, no inline.
    expect(csp).not.toContain("'unsafe-eval'")
    expect(csp.match(/script-src [^;]*/)?.[0]).toBe("script-src 'self' 'wasm-unsafe-eval'")
    // Plain http (localhost): no upgrade, no HSTS.
    expect(csp).not.toContain('upgrade-insecure-requests')
    expect(res.headers['strict-transport-security']).toBeUndefined()
    expect(res.headers['x-content-type-options']).toBe('nosniff')
    expect(res.headers['x-frame-options']).toBe('DENY')
  })

  it('adds HSTS and upgrade-insecure-requests behind https', async () => {
    const https = await createTestApp({ env: { PUBLIC_URL: 'https://circles.example' } })
    try {
      const res = await https.app.inject('/api/health')
      expect(res.headers['strict-transport-security']).toContain('max-age=31536000')
      expect(res.headers['content-security-policy']).toContain('upgrade-insecure-requests')
    } finally {
      await https.close()
    }
  })
})

describe('OpenAPI', () => {
  it('documents the accounts API at /api/docs', async () => {
    const ui = await t.app.inject('/api/docs')
    expect([200, 302]).toContain(ui.statusCode)
    const doc = (await t.app.inject('/api/docs/json')).json()
    expect(doc.openapi).toMatch(/^3\./)
    for (const p of [
      '/api/users/register',
      '/api/users/login',
      '/api/users/status/{id}',
      '/api/contact',
      '/api/health',
    ]) {
      expect(Object.keys(doc.paths)).toContain(p)
    }
    expect(JSON.stringify(doc.paths['/api/users/register'])).toContain('password')
  })
})

describe('socket.io', () => {
  it('accepts a bearer token in the handshake and refuses a missing one', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = t.app.server.address() as AddressInfo
    const url = `http://127.0.0.1:${port}`
    const user = await createUser(t.database)
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: user.email, password: user.password },
    })

    const ok = connect(url, {
      path: '/socket.io',
      auth: { token: login.json().token },
      transports: ['websocket'],
    })
    const connected = await new Promise<{ userId: string }>((resolve, reject) => {
      ok.on('connected', resolve)
      ok.on('connect_error', reject)
    })
    expect(connected.userId).toBe(user.id)
    ok.close()

    const anon = connect(url, { path: '/socket.io', transports: ['websocket'], reconnection: false })
    const error = await new Promise<Error>((resolve) => anon.on('connect_error', resolve))
    expect(error.message).toBe('Unauthorized')
    anon.close()
  })
})

describe('compression', () => {
  it('compresses text answers for browsers that accept it', async () => {
    const res = await t.app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': 'br, gzip' } })
    expect(res.headers['content-encoding']).toBe('br')
    const gz = await t.app.inject({ url: '/circles/1', headers: { 'accept-encoding': 'gzip' } })
    expect(gz.statusCode).toBe(200)
    const plain = await t.app.inject({ url: '/api/docs/json' })
    expect(plain.headers['content-encoding']).toBeUndefined()
  })

  it('sends the brotli or gzip copy written at build time as it is, with Vary: Accept-Encoding', async () => {
    const url = '/assets/big-abc123.js'
    const br = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } })
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['content-type']).toMatch(/javascript/)
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    expect(br.headers['cache-control']).toContain('immutable')
    // The very bytes on disk (quality 11 there), not compressed a second time.
    expect(br.rawPayload.equals(brotliCompressSync(BIG_CHUNK))).toBe(true)
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_CHUNK)
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length)

    const gz = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gz.headers.vary).toMatch(/accept-encoding/i)
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG_CHUNK)

    const plain = await t.app.inject({ url })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.headers.vary).toMatch(/accept-encoding/i)
    expect(plain.body).toBe(BIG_CHUNK)
  })

  it('never serves the compressed copies under their own names', async () => {
    for (const url of ['/assets/big-abc123.js.br', '/assets/big-abc123.js.gz']) {
      expect((await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } })).statusCode).toBe(404)
    }
  })
})

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { MESSAGES } from '@circles/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_CEILING, LOGIN_GUESSING } from '../src/lib/rate-limits'
import { createUser } from './support/factories'
import { type TestApp, createTestApp, secondInstance } from './support/test-app'

// Many people share one address (a makerspace router): the app's own files are never limited, the API
// has a generous ceiling per address, and the sensitive calls count per email, account and address.

const ROUTER = '10.77.0.1'

describe('one address, many people', () => {
  let t: TestApp
  let webDir: string
  beforeAll(async () => {
    webDir = await mkdtemp(path.join(os.tmpdir(), 'circles-web-'))
    await mkdir(path.join(webDir, 'assets'))
    await mkdir(path.join(webDir, 'prerender', 'en'), { recursive: true })
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><html><head></head><body></body></html>')
    await writeFile(
      path.join(webDir, 'prerender', 'en', 'login.html'),
      '<html><head></head><body>login</body></html>',
    )
    await writeFile(path.join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)')
    await writeFile(path.join(webDir, 'sw.js'), 'self.addEventListener("fetch", () => {})')
    await writeFile(path.join(webDir, 'manifest.webmanifest'), '{}')
    t = await createTestApp({ webDir })
  })
  afterAll(async () => {
    await t.close()
    await rm(webDir, { recursive: true, force: true })
  })

  const get = (url: string, ip = ROUTER) => t.app.inject({ method: 'GET', url, remoteAddress: ip })

  it('never limits pages, assets and the service worker; the API has a ceiling per address', async () => {
    for (let i = 0; i < API_CEILING.points; i++) {
      expect((await get('/api/users/me')).statusCode).toBe(401)
    }
    const refused = await get('/api/users/me')
    expect(refused.statusCode).toBe(429)
    expect(refused.json()).toMatchObject({
      message: MESSAGES.tooManyRequests,
      code: 'RATE_LIMITED',
      key: 'tooManyRequests',
      retryAfter: expect.any(Number),
    })
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)

    // Far beyond the ceiling, the same address still gets every file of the app.
    for (let i = 0; i < 200; i++) {
      for (const url of [
        '/',
        '/login',
        '/circles/1',
        '/assets/app-abc123.js',
        '/sw.js',
        '/manifest.webmanifest',
      ]) {
        expect((await get(url)).statusCode, url).toBe(200)
      }
    }
    // Probes, and everyone else, are not affected.
    expect((await get('/api/health')).statusCode).toBe(200)
    expect((await get('/api/ready')).statusCode).toBe(200)
    expect((await get('/api/users/me', '10.77.0.2')).statusCode).toBe(401)
  })

  it('caches hashed assets for a year; pages and the service worker revalidate (304 when unchanged)', async () => {
    expect((await get('/assets/app-abc123.js', '10.77.1.1')).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    )
    for (const url of ['/', '/login', '/sw.js', '/manifest.webmanifest']) {
      const res = await get(url, '10.77.1.1')
      expect(res.headers['cache-control'], url).toBe('no-cache')
      const again = await t.app.inject({ url, headers: { 'if-none-match': String(res.headers.etag) } })
      expect(again.statusCode, url).toBe(304)
      expect(again.body).toBe('')
    }
  })
})

// Several instances behind a load balancer share one PostgreSQL, and with it their counters.
describe.runIf(process.env.DATABASE_URL)('two instances on one PostgreSQL', () => {
  let first: TestApp
  let second: TestApp
  beforeAll(async () => {
    first = await createTestApp()
    second = await secondInstance(first, 2)
  })
  afterAll(async () => {
    await second.close()
    await first.close()
  })

  it('count failed sign-ins of one account and address together; the owner elsewhere gets in', async () => {
    const user = await createUser(first.database)
    const login = (app: TestApp['app'], password: string, ip: string) =>
      app.inject({
        method: 'POST',
        url: '/api/users/login',
        payload: { email: user.email, password },
        remoteAddress: ip,
      })
    const apps = [first.app, second.app]
    for (let i = 0; i <= LOGIN_GUESSING.freeFailures; i++) {
      expect((await login(apps[i % 2]!, `wrong-${i}`, '10.88.0.1')).statusCode).toBe(401)
    }
    // The guesser's address waits on both instances; the owner's does not.
    expect((await login(first.app, user.password, '10.88.0.1')).statusCode).toBe(429)
    expect((await login(second.app, user.password, '10.88.0.1')).statusCode).toBe(429)
    expect((await login(second.app, user.password, '10.88.2.2')).statusCode).toBe(200)
    const stored = await first.database.pool?.query<{ key: string }>('select key from rate_limits')
    expect(stored?.rows.length).toBeGreaterThan(0)
    expect(stored?.rows.some((row) => row.key.includes(user.email) || row.key.includes('10.88'))).toBe(false)
  })
})

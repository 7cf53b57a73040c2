// Issue 22: no API answer may be kept by a browser or a cache on the way (Cache-Control: no-store):
// sessions' data, members' pictures, and the error answers to them alike. Every route of the app is
// called (enumerated as the app adds them, so a route added later is covered without a change here),
// anonymously and as a circle's admin with real ids; the app's own files keep their caching.
import { randomBytes, randomUUID } from 'node:crypto'
import type { HTTPMethods } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SignedIn, addMember, createCircle, signedIn } from './support/circles'
import { createItem, handOver, pendingHandover } from './support/handovers'
import { multipart, pictureBytes } from './support/images'
import { type ApiRoute, createTestAppWithRoutes } from './support/routes'
import type { TestApp } from './support/test-app'

let routes: ApiRoute[]
let t: TestApp

beforeAll(async () => {
  ;({ t, routes } = await createTestAppWithRoutes({ env: { RATE_LIMITS: 'off' } }))
})
afterAll(() => t.close())

const apiRoutes = () => routes.filter(({ url }) => !url.startsWith('/api/docs'))

describe('Cache-Control on API answers', () => {
  it('is no-store on every answer of every API route, anonymous or signed in, success or error', async () => {
    const admin = await signedIn(t)
    const member = await signedIn(t)
    const circle = await createCircle(t, admin)
    await addMember(t, admin, circle.id, member)
    const item = await createItem(t, admin, circle.id)
    const upload = multipart('image', { name: 'a.png', type: 'image/png', bytes: await pictureBytes('png') })
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/items/${item.id}/image`,
      headers: { ...admin.auth, ...upload.headers },
      payload: upload.payload,
    })
    expect(uploaded.statusCode, uploaded.body).toBe(200)
    const picture = (uploaded.json().imageUrl as string).split('/').pop()!
    const confirmed = await handOver(t, admin, member, item.id)
    const second = await createItem(t, member, circle.id, 'Ladder')
    const pending = await pendingHandover(t, member, admin, second.id, { secretMessage: 'under the mat' })
    const invited = await t.app.inject({
      method: 'POST',
      url: `/api/circles/${circle.id}/users`,
      headers: admin.auth,
      payload: { email: `someone-${randomBytes(3).toString('hex')}@example.com` },
    })
    const invitationId = invited.json().invitation.id as string

    // Real ids by parameter name; `:id` by the resource its path names.
    const idFor: Record<string, string> = {
      circles: circle.id,
      items: item.id,
      handovers: pending.id,
      blockchain: confirmed.block!.id,
      users: member.user.id,
    }
    const valueFor = (param: string, url: string) => {
      const resource = url.split('/')[2] ?? ''
      if (param === 'id') {
        if (url.includes('/circle/:id')) return circle.id
        if (url.includes('/item/:id')) return item.id
        return idFor[resource] ?? randomUUID()
      }
      if (param === 'item' || param === 'itemId') return item.id
      return (
        {
          circleId: circle.id,
          invId: invitationId,
          userId: member.user.id,
          file: picture,
          token: randomBytes(32).toString('hex'),
        }[param] ?? randomUUID()
      )
    }
    const fill = (url: string) => url.replace(/:([A-Za-z]+)/g, (_, param: string) => valueFor(param, url))

    const all = apiRoutes()
    expect(all.length).toBeGreaterThan(40)
    // Reads first, with real ids; then the changes (whatever they do to the data, their answers count).
    const ordered = [
      ...all.filter(({ method }) => method === 'GET'),
      ...all.filter(({ method }) => method !== 'GET'),
      { method: 'GET', url: '/api/no-such-route' },
    ]
    const answers: { who: string; method: string; url: string; status: number; cache: unknown }[] = []
    for (const { method, url } of ordered) {
      for (const who of [null, admin] as (SignedIn | null)[]) {
        const path = fill(url)
        const res = await t.app.inject({
          method: method as HTTPMethods,
          url: path,
          headers: who?.auth ?? {},
          ...(method !== 'GET' && method !== 'HEAD' && { payload: {} }),
        })
        answers.push({
          who: who ? 'admin' : 'anonymous',
          method,
          url: path,
          status: res.statusCode,
          cache: res.headers['cache-control'],
        })
      }
    }
    expect(answers.filter((answer) => answer.cache !== 'no-store')).toEqual([])

    // The answers include the members-only data itself, not only refusals.
    const ok = (method: string, url: string) =>
      answers.some((a) => a.who === 'admin' && a.method === method && a.url === url && a.status === 200)
    expect(ok('GET', `/api/items/image/${picture}`)).toBe(true)
    for (const url of [
      '/api/users/me',
      `/api/circles/${circle.id}`,
      `/api/items/${item.id}`,
      `/api/handovers/item/${item.id}`,
      `/api/blockchain/${confirmed.block!.id}`,
      `/api/circles/${circle.id}/invitations`,
    ]) {
      expect(ok('GET', url), url).toBe(true)
    }
    expect(answers.filter((a) => a.who === 'anonymous' && a.status === 401).length).toBeGreaterThan(20)
    // Issue 29: a ledger tile's bytes never change for its path; the member's browser keeps it. Only the
    // tile itself: a refusal is no-store like every other answer.
    const tile = `/api/ledger/${circle.id}/tile/0/000.p/1`
    const tileAnswer = await t.app.inject({ url: tile, headers: admin.auth })
    expect(tileAnswer.statusCode).toBe(200)
    expect(tileAnswer.headers['cache-control']).toBe('private, max-age=31536000, immutable')
    expect((await t.app.inject({ url: tile })).headers['cache-control']).toBe('no-store')
    expect((await t.app.inject({ url: `${tile}0`, headers: admin.auth })).headers['cache-control']).toBe(
      'no-store',
    )
    // So are an entry bundle's (the leaf bytes of those hashes).
    const bundle = `/api/ledger/${circle.id}/tile/entries/000.p/1`
    const bundleAnswer = await t.app.inject({ url: bundle, headers: admin.auth })
    expect(bundleAnswer.statusCode).toBe(200)
    expect(bundleAnswer.headers['cache-control']).toBe('private, max-age=31536000, immutable')
    expect((await t.app.inject({ url: bundle })).headers['cache-control']).toBe('no-store')
    // The OpenAPI documentation is public (the app's pages and files: platform.test.ts).
    expect((await t.app.inject('/api/docs/json')).headers['cache-control']).not.toBe('no-store')
  })
})

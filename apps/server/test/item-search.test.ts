import { MESSAGES, messageKeyOf, type TItem } from '@circles/shared'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, createCircle, type SignedIn, signedIn } from './support/circles'
import { handOver, pendingHandover } from './support/handovers'
import { createTestApp, type TestApp } from './support/test-app'

let t: TestApp
let ada: SignedIn
let max: SignedIn
let olga: SignedIn
let otto: SignedIn
const circles: Record<'shop' | 'garden' | 'other', string> = { shop: '', garden: '', other: '' }
const ids: Record<string, string> = {}

async function item(who: SignedIn, circleId: string, name: string, description?: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/items',
    headers: who.auth,
    payload: { name, description, circleId },
  })
  expect(res.statusCode).toBe(201)
  ids[name] = (res.json().item as TItem).id
}

/** Makerspace: Ada (admin) and Max; Garden: Ada and Olga; Otto's own circle, which Ada cannot see. */
beforeAll(async () => {
  t = await createTestApp({ env: { PLAN_LIMITS: 'off' } })
  ada = await signedIn(t, { name: 'Ada Admin' })
  max = await signedIn(t, { name: 'Max Member' })
  olga = await signedIn(t, { name: 'Olga Gardener' })
  otto = await signedIn(t, { name: 'Otto Outsider' })
  circles.shop = (await createCircle(t, ada, { name: 'Makerspace' })).id
  circles.garden = (await createCircle(t, ada, { name: 'Garden' })).id
  circles.other = (await createCircle(t, otto, { name: 'Otto’s shed' })).id
  await addMember(t, ada, circles.shop, max)
  await addMember(t, ada, circles.garden, olga)
  // Created in this order: newest first is the reverse.
  await item(ada, circles.shop, 'Cordless drill', 'With two batteries')
  await item(ada, circles.shop, 'Ladder', 'Aluminium, 3 m')
  await item(max, circles.shop, 'board game', 'Settlers, complete')
  await item(ada, circles.garden, 'Hedge trimmer', 'CORDLESS, 18 V')
  await item(olga, circles.garden, '100% cotton_bag')
  await item(otto, circles.other, 'Secret cordless drill')
  await handOver(t, ada, max, ids['Ladder']!)
  await pendingHandover(t, ada, max, ids['Cordless drill']!)
})
afterAll(() => t.close())

async function search(who: SignedIn, query: string, base = '/api/items') {
  const res = await t.app.inject({ method: 'GET', url: `${base}?${query}`, headers: who.auth })
  return res
}

async function names(who: SignedIn, query: string, base?: string) {
  const res = await search(who, query, base)
  expect(res.statusCode, res.body).toBe(200)
  const body = res.json() as { items: TItem[]; total: number }
  return body.items.map((i) => i.name)
}

describe('item search: GET /items with a query (issue 23)', () => {
  it('without a query answers as before: every visible item, newest first, with the total', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/items', headers: ada.auth })
    expect(res.statusCode).toBe(200)
    expect(res.json().items.map((i: TItem) => i.name)).toEqual([
      '100% cotton_bag',
      'Hedge trimmer',
      'board game',
      'Ladder',
      'Cordless drill',
    ])
    expect(res.json().total).toBe(5)
  })

  it('finds words in the name or the description, case-insensitively, every word required', async () => {
    expect(await names(ada, 'q=cordless')).toEqual(['Hedge trimmer', 'Cordless drill'])
    expect(await names(ada, 'q=%20Cordless%20%20BATTERIES%20')).toEqual(['Cordless drill'])
    expect(await names(ada, 'q=settlers')).toEqual(['board game'])
    expect(await names(ada, 'q=cordless%20ladder')).toEqual([])
    // An empty search is no filter.
    expect(await names(ada, 'q=')).toHaveLength(5)
  })

  it('takes % and _ literally', async () => {
    expect(await names(ada, 'q=%25')).toEqual(['100% cotton_bag'])
    expect(await names(ada, 'q=n_b')).toEqual(['100% cotton_bag'])
    expect(await names(ada, 'q=o_d')).toEqual([])
  })

  it('filters by circle; a circle the caller is not in gives nothing of it', async () => {
    expect(await names(ada, `circle=${circles.garden}`)).toEqual(['100% cotton_bag', 'Hedge trimmer'])
    expect(await names(ada, `circle=${circles.other}`)).toEqual([])
    expect(await names(ada, `circle=${circles.other}&q=secret`)).toEqual([])
    expect(await names(otto, 'q=cordless')).toEqual(['Secret cordless drill'])
    // Max is in the Makerspace only: the garden's items stay hidden from him.
    expect(await names(max, 'q=cordless')).toEqual(['Cordless drill'])
  })

  it('filters by holder: me, or a member by id', async () => {
    expect(await names(ada, 'holder=me')).toEqual(['Hedge trimmer', 'Cordless drill'])
    expect(await names(ada, `holder=${max.user.id}`)).toEqual(['board game', 'Ladder'])
    expect(await names(max, 'holder=me&q=ladder')).toEqual(['Ladder'])
    expect(await names(ada, `holder=${otto.user.id}`)).toEqual([])
  })

  it('filters by state: available, pending, on loan (none yet), handed over', async () => {
    expect(await names(ada, 'state=pending')).toEqual(['Cordless drill'])
    expect(await names(ada, 'state=handed-over')).toEqual(['Ladder'])
    expect(await names(ada, 'state=available')).toEqual([
      '100% cotton_bag',
      'Hedge trimmer',
      'board game',
      'Ladder',
    ])
    expect(await names(ada, 'state=on-loan')).toEqual([])
    expect(await names(ada, `state=available&holder=me&circle=${circles.shop}`)).toEqual([])
  })

  it('sorts by name, newest, and most recently handed over', async () => {
    expect(await names(ada, 'sort=name')).toEqual([
      '100% cotton_bag',
      'board game',
      'Cordless drill',
      'Hedge trimmer',
      'Ladder',
    ])
    expect(await names(ada, 'sort=newest&circle=' + circles.shop)).toEqual([
      'board game',
      'Ladder',
      'Cordless drill',
    ])
    expect((await names(ada, 'sort=recent-handover'))[0]).toBe('Ladder')
  })

  it('pages with limit and offset; total counts every match', async () => {
    const first = await search(ada, 'sort=name&limit=2')
    expect(first.json()).toMatchObject({ total: 5 })
    expect(first.json().items.map((i: TItem) => i.name)).toEqual(['100% cotton_bag', 'board game'])
    const second = await search(ada, 'sort=name&limit=2&offset=2')
    expect(second.json().items.map((i: TItem) => i.name)).toEqual(['Cordless drill', 'Hedge trimmer'])
    const past = await search(ada, 'sort=name&limit=2&offset=10')
    expect(past.json()).toEqual({ items: [], total: 5 })
  })

  it.each([
    ['q=' + 'x'.repeat(101), MESSAGES.itemSearchTextMax],
    ['q=a&q=b', MESSAGES.itemSearchBadText],
    ['q=%07bell', MESSAGES.itemSearchBadText],
    ['circle=garden', MESSAGES.itemSearchBadCircle],
    ['holder=you', MESSAGES.itemSearchBadHolder],
    ['state=lost', MESSAGES.itemSearchBadState],
    ['state=', MESSAGES.itemSearchBadState],
    ['sort=oldest', MESSAGES.itemSearchBadSort],
    ['limit=0', MESSAGES.itemSearchBadLimit],
    ['limit=101', MESSAGES.itemSearchBadLimit],
    ['limit=ten', MESSAGES.itemSearchBadLimit],
    ['offset=-1', MESSAGES.itemSearchBadOffset],
    ['offset=100001', MESSAGES.itemSearchBadOffset],
  ])('refuses %s with 400 and a clear message', async (query, message) => {
    for (const base of ['/api/items', `/api/items/circle/${circles.shop}`]) {
      const res = await search(ada, query, base)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ message, code: 'VALIDATION_ERROR', key: messageKeyOf(message) })
    }
  })

  it('asks for a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/items?q=drill' })
    expect(res.statusCode).toBe(401)
  })
})

describe("item search on a circle's items: GET /items/circle/:id with a query", () => {
  it('answers the plain list as before, with the total', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/items/circle/${circles.shop}`,
      headers: max.auth,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().items.map((i: TItem) => i.name)).toEqual(['board game', 'Ladder', 'Cordless drill'])
    expect(res.json().total).toBe(3)
  })

  it('filters, sorts and pages within the circle', async () => {
    const base = `/api/items/circle/${circles.shop}`
    expect(await names(max, 'q=cordless', base)).toEqual(['Cordless drill'])
    expect(await names(max, 'holder=me&sort=name', base)).toEqual(['board game', 'Ladder'])
    expect(await names(max, 'state=pending', base)).toEqual(['Cordless drill'])
    expect(await names(max, `circle=${circles.garden}`, base)).toEqual([])
    expect(await names(max, 'sort=name&limit=1&offset=1', base)).toEqual(['Cordless drill'])
  })

  it('is for members only: 404 with or without a query', async () => {
    for (const query of ['', 'q=secret']) {
      const res = await search(ada, query, `/api/items/circle/${circles.other}`)
      expect(res.statusCode).toBe(404)
      expect(res.json().message).toBe(MESSAGES.notFound)
    }
  })
})

describe('the search index (migration 0009)', () => {
  it('exists, and the search can use it', async () => {
    const { db } = t.database
    const index = await db.execute(
      sql`select indexdef from pg_indexes where tablename = 'items' and indexname = 'items_search_trgm_idx'`,
    )
    const rows = (index as unknown as { rows: { indexdef: string }[] }).rows
    expect(rows[0]?.indexdef).toContain('gin_trgm_ops')
    // With sequential scans priced out, the planner picks the trigram index for the search's predicate.
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`)
      return tx.execute(
        sql`explain select id from items where (items.name || ' ' || coalesce(items.description, '')) ilike '%cordless%'`,
      )
    })
    const text = (plan as unknown as { rows: { 'QUERY PLAN': string }[] }).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n')
    expect(text).toContain('items_search_trgm_idx')
  })
})

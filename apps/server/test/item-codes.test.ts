import { ITEM_CODE_PATTERN, MESSAGES, normalizeItemCode } from '@circles/shared'
import { items } from '../src/db/schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, createCircle, type SignedIn, signedIn } from './support/circles'
import { createItem } from './support/handovers'
import { createTestApp, type TestApp } from './support/test-app'

/** Issue 27, labels (docs/decisions/0052): every item's short code and GET /api/items/by-code/:code. */
let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const byCode = (who: SignedIn | null, code: string) =>
  t.app.inject({ method: 'GET', url: `/api/items/by-code/${code}`, headers: who?.auth ?? {} })

async function circleWithItem() {
  const admin = await signedIn(t, { name: 'Ada Admin' })
  const member = await signedIn(t, { name: 'Max Member' })
  const circle = await createCircle(t, admin)
  await addMember(t, admin, circle.id, member)
  const item = await createItem(t, admin, circle.id, 'Ladder')
  return { admin, member, circle, item }
}

describe('item codes', () => {
  it('every new item gets its own code of 8 characters without 0, O, 1, I, L, U', async () => {
    const { admin, circle, item } = await circleWithItem()
    const more = await Promise.all([1, 2, 3, 4, 5].map((n) => createItem(t, admin, circle.id, `Thing ${n}`)))
    const codes = [item, ...more].map((i) => i.code)
    for (const code of codes) {
      expect(code).toMatch(ITEM_CODE_PATTERN)
      expect(code).not.toMatch(/[01OILU]/)
    }
    expect(new Set(codes).size).toBe(codes.length)
    // The item's other answers carry it too.
    const got = await t.app.inject({ method: 'GET', url: `/api/items/${item.id}`, headers: admin.auth })
    expect(got.json().item.code).toBe(item.code)
  })

  it('a member resolves a code to the item, typed in lower case or with a hyphen too', async () => {
    const { member, item } = await circleWithItem()
    const res = await byCode(member, item.code)
    expect(res.statusCode).toBe(200)
    expect(res.json().item).toMatchObject({ id: item.id, name: 'Ladder', code: item.code })
    const typed = `${item.code.slice(0, 4)}-${item.code.slice(4)}`.toLowerCase()
    expect((await byCode(member, typed)).json().item.id).toBe(item.id)
  })

  it('a non-member gets the 404 of an unknown code; signed out gets 401', async () => {
    const { item } = await circleWithItem()
    const outsider = await signedIn(t)
    const foreign = await byCode(outsider, item.code)
    expect(foreign.statusCode).toBe(404)
    expect(foreign.body).not.toContain('Ladder')
    const unknown = await byCode(outsider, 'ZZZZZZZZ')
    expect(unknown.statusCode).toBe(404)
    expect(foreign.json()).toEqual(unknown.json())
    expect(foreign.json().message).toBe(MESSAGES.notFound)
    const anonymous = await byCode(null, item.code)
    expect(anonymous.statusCode).toBe(401)
    expect(anonymous.body).not.toContain('Ladder')
  })

  it('something that is no code gets the same 404', async () => {
    const { member } = await circleWithItem()
    for (const bad of ['O0O0O0O0', 'ABC', 'ABCDEFGHJ', '%27%3B--', 'x'.repeat(60)]) {
      const res = await byCode(member, bad)
      expect(res.statusCode, bad).toBe(404)
      expect(res.json().message).toBe(MESSAGES.notFound)
    }
  })

  it('the holder still resolves the code of an item isolated from the circle when she left', async () => {
    const { admin, member, circle } = await circleWithItem()
    const own = await createItem(t, member, circle.id, 'Tent')
    const left = await t.app.inject({
      method: 'POST',
      url: `/api/circles/${circle.id}/leave`,
      headers: member.auth,
    })
    expect(left.statusCode).toBe(200)
    expect((await byCode(member, own.code)).statusCode).toBe(200)
    // The circle's admin no longer sees it (the usual rule of an isolated item).
    expect((await byCode(admin, own.code)).statusCode).toBe(404)
  })

  it('the database gives a code to a row inserted without one (the default of migration 0017)', async () => {
    const { admin, circle } = await circleWithItem()
    const [row] = await t.database.db
      .insert(items)
      .values({ circleId: circle.id, ownerId: admin.user.id, name: 'Raw' })
      .returning({ code: items.code })
    expect(row!.code).toMatch(ITEM_CODE_PATTERN)
  })
})

describe('normalizeItemCode', () => {
  it('accepts what a person types and refuses the rest', () => {
    expect(normalizeItemCode('abcd-efgh')).toBe('ABCDEFGH')
    expect(normalizeItemCode(' 7k3m 9qxr ')).toBe('7K3M9QXR')
    expect(normalizeItemCode('ABCDEFG')).toBeUndefined()
    expect(normalizeItemCode('ABCDEFGI')).toBeUndefined()
    expect(normalizeItemCode('0BCDEFGH')).toBeUndefined()
  })
})

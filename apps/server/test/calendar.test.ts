import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { calendarFeeds } from '../src/db/schema'
import { hashToken } from '../src/lib/tokens'
import { type SignedIn, addMember, createCircle, signedIn } from './support/circles'
import { insertLoan, setReturned, setTimeZone, testClock } from './support/loans'
import { type TestApp, createTestApp } from './support/test-app'

const clock = testClock('2026-03-01T10:00:00Z')
let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ clock: clock.now })
})
afterAll(() => t.close())

const call = (method: 'GET' | 'POST' | 'DELETE', who: SignedIn) =>
  t.app.inject({ method, url: '/api/users/me/calendar', headers: who.auth })
const path = (url: string) => new URL(url).pathname
const unfold = (text: string) => text.replace(/\r\n /g, '')

describe('the calendar feed', () => {
  it('has no URL until made; a new link replaces the old; turning it off ends it', async () => {
    const ann = await signedIn(t)
    expect((await call('GET', ann)).json()).toEqual({ url: null })
    const made = await call('POST', ann)
    expect(made.statusCode, made.body).toBe(200)
    const { url } = made.json()
    expect(url).toMatch(/^http:\/\/localhost:3000\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
    // The profile shows the same URL again; only the token's hash is stored.
    expect((await call('GET', ann)).json()).toEqual({ url })
    const token = path(url).slice('/api/calendar/'.length, -'.ics'.length)
    const rows = await t.database.db.select().from(calendarFeeds)
    const row = rows.find((r) => r.userId === ann.user.id)
    expect(row?.tokenHash).toBe(hashToken(token))
    expect(JSON.stringify(rows)).not.toContain(token)
    expect((await t.app.inject({ method: 'GET', url: path(url) })).statusCode).toBe(200)

    const renewed = (await call('POST', ann)).json().url
    expect(renewed).not.toBe(url)
    const old = await t.app.inject({ method: 'GET', url: path(url) })
    expect(old.statusCode).toBe(404)
    expect(old.headers['cache-control']).toBe('no-store')
    expect((await t.app.inject({ method: 'GET', url: path(renewed) })).statusCode).toBe(200)

    expect((await call('DELETE', ann)).json()).toEqual({ url: null })
    expect((await call('GET', ann)).json()).toEqual({ url: null })
    expect((await t.app.inject({ method: 'GET', url: path(renewed) })).statusCode).toBe(404)
  })

  it("lists the person's active loans as borrower and lender, in their language, RFC 5545 throughout", async () => {
    const ida = await signedIn(t, { name: 'Ida; Lender' })
    const ben = await signedIn(t, { name: 'Ben Borrower', language: 'de' })
    const circle = await createCircle(t, ida, { name: 'Linden Street' })
    await addMember(t, ida, circle.id, ben)
    await setTimeZone(t, ben, 'Europe/Berlin')
    const lent = await insertLoan(t, {
      lender: ida,
      borrower: ben,
      circleId: circle.id,
      dueAt: '2026-03-30T16:00:00Z',
      itemName: 'Bohrmaschine, groß',
    })
    // Due at the end of the day in Berlin: an all-day event on that day.
    const tent = await insertLoan(t, {
      lender: ben,
      borrower: ida,
      circleId: circle.id,
      dueAt: '2026-04-12T21:59:00Z',
      itemName: `Zelt ${'mit sehr langem Namen '.repeat(4)}`,
    })
    const gone = await insertLoan(t, {
      lender: ida,
      borrower: ben,
      circleId: circle.id,
      dueAt: '2026-04-01T10:00:00Z',
    })
    await setReturned(t, gone.loan.id)

    const url = (await call('POST', ben)).json().url
    const res = await t.app.inject({ method: 'GET', url: path(url) })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8')
    expect(res.headers['cache-control']).toBe('no-store')
    const text = res.body
    expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true)
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/)
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75)
    const lines = unfold(text).split('\r\n')
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(2)
    expect(lines).toContain(`UID:loan-${lent.loan.id}@localhost:3000`)
    expect(lines).toContain('SUMMARY:Bohrmaschine\\, groß an Ida\\; Lender zurückgeben')
    expect(lines).toContain('DTSTART:20260330T160000Z')
    expect(lines).toContain(`URL:http://localhost:3000/items/${lent.item.id}`)
    expect(lines).toContain(`UID:loan-${tent.loan.id}@localhost:3000`)
    expect(lines.find((l) => l.startsWith('SUMMARY:Zelt'))).toMatch(/kommt von Ida\\; Lender zurück$/)
    expect(lines).toContain('DTSTART;VALUE=DATE:20260412')
    expect(lines).toContain('DTSTAMP:20260301T100000Z')
    expect(text).not.toContain(gone.loan.id)
    // The UID stays the same from one fetch to the next.
    clock.set('2026-03-02T10:00:00Z')
    const again = unfold((await t.app.inject({ method: 'GET', url: path(url) })).body)
    expect(again).toContain(`UID:loan-${lent.loan.id}@localhost:3000`)
    expect(again).toContain('DTSTAMP:20260302T100000Z')
  })

  it('answers 404 to unknown and malformed tokens, and needs a session for the profile routes', async () => {
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/calendar/${'A'.repeat(43)}.ics` })).statusCode,
    ).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: '/api/calendar/short.ics' })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: `/api/calendar/${'A'.repeat(43)}` })).statusCode).toBe(
      404,
    )
    for (const method of ['GET', 'POST', 'DELETE'] as const)
      expect((await t.app.inject({ method, url: '/api/users/me/calendar' })).statusCode).toBe(401)
  })
})

describe('the calendar feed under guessing', () => {
  it('refuses an address after 30 wrong tokens', async () => {
    const limited = await createTestApp()
    try {
      const guess = (i: number) =>
        limited.app.inject({
          method: 'GET',
          url: `/api/calendar/${String(i).padStart(43, 'A')}.ics`,
        })
      for (let i = 0; i < 30; i++) expect((await guess(i)).statusCode).toBe(404)
      const refused = await guess(31)
      expect(refused.statusCode).toBe(429)
      expect(refused.json()).toMatchObject({ key: 'tooManyRequests' })
    } finally {
      await limited.close()
    }
  })
})

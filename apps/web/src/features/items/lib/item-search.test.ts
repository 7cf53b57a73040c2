import { describe, expect, it } from 'vitest'
import { apiQuery, cleared, isFiltered, readSearch, writeSearch } from './item-search'

const CIRCLE = '11111111-1111-4111-8111-111111111111'
const MEMBER = '22222222-2222-4222-8222-222222222222'
const read = (query: string) => readSearch(new URLSearchParams(query))

describe('item search in the URL (issue 23)', () => {
  it('reads what a link carries and writes it back the same, defaults left out', () => {
    const query = `q=red+drill&circle=${CIRCLE}&holder=${MEMBER}&state=pending&sort=name`
    const state = read(query)
    expect(state).toEqual({ q: 'red drill', circle: CIRCLE, holder: MEMBER, state: 'pending', sort: 'name' })
    expect(writeSearch(state).toString()).toBe(query)
    expect(writeSearch(read('')).toString()).toBe('')
    expect(writeSearch(read('sort=newest&q=+')).toString()).toBe('')
  })

  it('drops what it does not know, so an edited link still shows a list', () => {
    expect(read('state=lost&sort=oldest&circle=garden&holder=you&q=' + 'x'.repeat(150))).toEqual({
      q: 'x'.repeat(100),
      circle: '',
      holder: '',
      state: '',
      sort: 'newest',
    })
    expect(read('state=on-loan&holder=all').state).toBe('on-loan')
  })

  it('counts the filters but not the order; clearing keeps the order', () => {
    expect(isFiltered(read('sort=name'))).toBe(false)
    expect(isFiltered(read('holder=all'))).toBe(true)
    expect(isFiltered(read('q=drill'))).toBe(true)
    expect(cleared(read(`q=drill&state=pending&sort=name&circle=${CIRCLE}`))).toEqual(read('sort=name'))
  })

  it("asks the API for the caller's items on /items unless 'Anyone' is chosen; everyone's on a circle's page", () => {
    const page = { limit: 24, offset: 0 }
    expect(apiQuery(read(''), { scope: 'mine', ...page })).toBe('holder=me&sort=newest&limit=24')
    expect(apiQuery(read('holder=all&q=+drill+'), { scope: 'mine', ...page })).toBe(
      'q=drill&sort=newest&limit=24',
    )
    expect(
      apiQuery(read(`circle=${CIRCLE}&state=available`), { scope: 'circle', limit: 24, offset: 48 }),
    ).toBe('state=available&sort=newest&limit=24&offset=48')
    expect(apiQuery(read(`holder=${MEMBER}&sort=recent-handover`), { scope: 'circle', ...page })).toBe(
      `holder=${MEMBER}&sort=recent-handover&limit=24`,
    )
  })
})

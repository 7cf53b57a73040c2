import { describe, expect, it } from 'vitest'
import { createEventCursor } from './event-cursor'

describe('the event cursor (docs/decisions/0043)', () => {
  it('has nothing to send before the first connection', () => {
    expect(createEventCursor().auth()).toEqual({})
  })

  it('keeps the first connection’s id and the newest seen, and skips a repeat', () => {
    const cursor = createEventCursor()
    cursor.connected(10)
    expect(cursor.auth()).toEqual({ lastEventId: 10, firstEventId: 10 })
    expect(cursor.fresh(12)).toBe(true)
    expect(cursor.fresh(11)).toBe(true)
    expect(cursor.fresh(12)).toBe(false)
    expect(cursor.auth()).toEqual({ lastEventId: 12, firstEventId: 10 })
    cursor.connected(20)
    expect(cursor.auth()).toEqual({ lastEventId: 20, firstEventId: 10 })
    expect(cursor.fresh(undefined)).toBe(true)
    expect(cursor.fresh(undefined)).toBe(true)
  })

  it('remembers a bounded number of ids', () => {
    const cursor = createEventCursor()
    for (let id = 1; id <= 1001; id++) cursor.fresh(id)
    expect(cursor.fresh(1)).toBe(true)
    expect(cursor.fresh(1001)).toBe(false)
  })
})

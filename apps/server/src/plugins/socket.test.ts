import { describe, expect, it } from 'vitest'
import { ROOM_EVENTS_MESSAGE_BYTES, roomEventMessages } from './socket'

const notice = (i: number, note = 'x'.repeat(200)) => ({
  id: i + 1,
  room: `user:${String(i % 7).padStart(8, '0')}-0000-4000-8000-000000000000`,
  event: 'new_activity' as const,
  payload: { id: `activity-${i}`, type: 'LOAN_DUE_SOON', note: `${note} «ü» 🙂` },
})

describe('roomEventMessages', () => {
  it('packs a batch into messages under the NOTIFY limit, in order, each event once', () => {
    const events = Array.from({ length: 1000 }, (_, i) => notice(i))
    const messages = roomEventMessages(events)
    // About 300 bytes an event: some 25 to a message, not one message per event.
    expect(messages.length).toBeLessThan(60)
    for (const message of messages) {
      expect(Buffer.byteLength(JSON.stringify(message))).toBeLessThanOrEqual(ROOM_EVENTS_MESSAGE_BYTES)
    }
    expect(messages.flat()).toEqual(events.map((e) => [e.id, e.room, e.event, e.payload]))
  })

  it('fills a message up to the limit exactly, and sends an event bigger than that alone', () => {
    const events = [notice(0), notice(1), notice(2, 'y'.repeat(9000)), notice(3)]
    const two = Buffer.byteLength(JSON.stringify(roomEventMessages(events.slice(0, 2), 10_000)[0]))
    // The limit at exactly two: both in one message; a byte less: one each.
    expect(roomEventMessages(events.slice(0, 2), two)).toHaveLength(1)
    expect(roomEventMessages(events.slice(0, 2), two - 1)).toHaveLength(2)
    expect(roomEventMessages(events).map((m) => m.map(([id]) => id))).toEqual([[1, 2], [3], [4]])
  })

  it('keeps an event the log could not write, without an id', () => {
    const { id: _id, ...unlogged } = notice(0)
    expect(roomEventMessages([unlogged])).toEqual([[[null, unlogged.room, 'new_activity', unlogged.payload]]])
  })
})

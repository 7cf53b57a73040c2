import type { ServerToClientEvents, TActivity } from '@circles/shared'
import { and, asc, eq, gt, gte, inArray, lt, lte, or, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { activities, socketEvents } from '../db/schema'
import { toNotice } from './events'

/**
 * The durable side of real-time events (docs/decisions/0043). Every event sent to a user's or a
 * circle's room is first written to `socket_events`, whose id only grows, and sent with that id. A
 * client that reconnects (to any instance) says the last id it saw; the events it missed in the rooms
 * it is in now are sent again, in order. socket.io's own connection state recovery keeps the missed
 * packets in the memory of the instance the client was on, so it cannot help when that instance is the
 * one restarting, nor through the PostgreSQL adapter.
 *
 * A `new_activity` row holds the activity's id only; the activity is read again from the feed, so the
 * table never holds a name (and account deletion need not know of it).
 */

/** Rows older than this are pruned; a client whose last id is older fetches everything again. */
export const REPLAY_WINDOW_MS = 5 * 60_000
/** A reconnecting client missing more than this many events fetches everything again instead. */
export const REPLAY_MAX_EVENTS = 500
/**
 * Two writers (instances) may commit their ids out of order: a client that saw id 11 may not yet have
 * seen id 10. Events up to this long before the last one seen, but after the client's first connection
 * (`firstEventId`), are sent again too; the client skips the ids it has.
 */
const OVERLAP_MS = 2000

export type RoomEventName = Exclude<
  keyof ServerToClientEvents,
  'connected' | 'error' | 'reconnect_soon' | 'resync'
>

export interface RoomEvent {
  room: string
  event: RoomEventName
  payload: unknown
}

export interface LoggedEvent extends RoomEvent {
  id: number
}

export type Replay =
  { kind: 'events'; events: LoggedEvent[]; head: number } | { kind: 'resync'; head: number }

export interface EventLog {
  /** Writes the events and returns them with their ids, in order. */
  record(events: RoomEvent[]): Promise<LoggedEvent[]>
  /** The newest id (0 when there is none). */
  head(): Promise<number>
  /** What a client whose last seen id is `cursor` missed in `rooms` (the rooms it is allowed in now). */
  replay(cursor: number, rooms: string[], firstEventId?: number): Promise<Replay>
  /** The events in `rooms` written since `since` (a fan-out outage), oldest first. */
  since(since: Date, rooms: string[]): Promise<LoggedEvent[]>
  /**
   * What a client's first connection missed in `rooms` since `since` (the server's time before its page
   * read its data); a resync when that is past the window or too many.
   */
  replaySince(since: Date, rooms: string[]): Promise<Replay>
  /** Deletes the rows older than the window. */
  prune(): Promise<void>
}

/** What the table keeps of an activity: its id, and the request's state the live entry carried. */
interface StoredActivity {
  activityId: string
  handoverStatus?: string
}

function stored(event: RoomEvent): unknown {
  if (event.event !== 'new_activity') return event.payload
  const activity = event.payload as TActivity & { handoverStatus?: string }
  return {
    activityId: activity.id,
    ...(activity.handoverStatus && { handoverStatus: activity.handoverStatus }),
  } satisfies StoredActivity
}

export function createEventLog(db: Db): EventLog {
  /** Reads the activities back; one no longer in the feed (its account deleted) is dropped. */
  async function resolve(
    rows: { id: number; room: string; event: string; payload: unknown }[],
  ): Promise<LoggedEvent[]> {
    const ids = rows
      .filter((row) => row.event === 'new_activity')
      .map((row) => (row.payload as StoredActivity).activityId)
    const feed = new Map<string, TActivity>()
    if (ids.length > 0) {
      // An activity is sent to its own user's room only (`user:<id>`): the room says whose it must be.
      const found = await db.select().from(activities).where(inArray(activities.id, ids))
      for (const row of found) feed.set(`user:${row.userId} ${row.id}`, toNotice(row).activity)
    }
    const out: LoggedEvent[] = []
    for (const row of rows) {
      if (row.event !== 'new_activity') {
        out.push(row as LoggedEvent)
        continue
      }
      const { activityId, handoverStatus } = row.payload as StoredActivity
      const activity = feed.get(`${row.room} ${activityId}`)
      if (activity) {
        out.push({
          ...(row as LoggedEvent),
          payload: handoverStatus ? { ...activity, handoverStatus } : activity,
        })
      }
    }
    return out
  }

  const columns = {
    id: socketEvents.id,
    room: socketEvents.room,
    event: socketEvents.event,
    payload: socketEvents.payload,
  }

  /** The sequence's last value, not the newest row's id: pruning leaves the table empty after a quiet while. */
  async function head(): Promise<number> {
    const result = (await db.execute(
      sql`select last_value::text as last, is_called from socket_events_id_seq`,
    )) as unknown as { rows: { last: string; is_called: boolean }[] }
    const row = result.rows[0]
    return row?.is_called ? Number(row.last) : 0
  }

  /** The rows read for a replay (one more than its bound, to tell), or a resync beyond the bound. */
  async function replayOf(rows: Parameters<typeof resolve>[0], now: number): Promise<Replay> {
    if (rows.length > REPLAY_MAX_EVENTS) return { kind: 'resync', head: now }
    return { kind: 'events', events: await resolve(rows), head: now }
  }

  return {
    async record(events) {
      if (events.length === 0) return []
      const rows = await db
        .insert(socketEvents)
        .values(events.map((e) => ({ room: e.room, event: e.event, payload: stored(e) })))
        .returning({ id: socketEvents.id })
      return events.map((e, i) => ({ ...e, id: rows[i]!.id }))
    },
    head,
    async replay(cursor, rooms, firstEventId) {
      const now = await head()
      // A restored or emptied database: the client's count means nothing here.
      if (cursor > now) return { kind: 'resync', head: now }
      const [seen] = await db
        .select({ createdAt: socketEvents.createdAt })
        .from(socketEvents)
        .where(eq(socketEvents.id, cursor))
      const [oldest] = await db
        .select({ id: socketEvents.id })
        .from(socketEvents)
        .orderBy(asc(socketEvents.id))
        .limit(1)
      // Rows after the cursor were pruned already: what the client missed is partly gone.
      if (cursor < now && (!oldest || oldest.id > cursor + 1) && !seen) return { kind: 'resync', head: now }
      const after =
        seen && firstEventId !== undefined && firstEventId < cursor
          ? or(
              gt(socketEvents.id, cursor),
              and(
                gt(socketEvents.id, firstEventId),
                gte(socketEvents.createdAt, new Date(seen.createdAt.getTime() - OVERLAP_MS)),
              ),
            )
          : gt(socketEvents.id, cursor)
      const rows = await db
        .select(columns)
        .from(socketEvents)
        .where(and(after, inArray(socketEvents.room, rooms), sql`${socketEvents.id} <> ${cursor}`))
        .orderBy(asc(socketEvents.id))
        .limit(REPLAY_MAX_EVENTS + 1)
      return replayOf(rows, now)
    },
    async since(since, rooms) {
      const rows = await db
        .select(columns)
        .from(socketEvents)
        .where(and(gte(socketEvents.createdAt, since), inArray(socketEvents.room, rooms)))
        .orderBy(asc(socketEvents.id))
        .limit(REPLAY_MAX_EVENTS)
      return resolve(rows)
    },
    async replaySince(since, rooms) {
      const now = await head()
      if (since.getTime() < Date.now() - REPLAY_WINDOW_MS) return { kind: 'resync', head: now }
      const rows = await db
        .select(columns)
        .from(socketEvents)
        .where(
          and(
            gte(socketEvents.createdAt, since),
            lte(socketEvents.id, now),
            inArray(socketEvents.room, rooms),
          ),
        )
        .orderBy(asc(socketEvents.id))
        .limit(REPLAY_MAX_EVENTS + 1)
      return replayOf(rows, now)
    },
    async prune() {
      await db.delete(socketEvents).where(lt(socketEvents.createdAt, new Date(Date.now() - REPLAY_WINDOW_MS)))
    },
  }
}

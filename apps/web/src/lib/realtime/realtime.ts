import { LIMITS, MESSAGES, SOCKET, type TActivity, ZStatusResponse } from '@circles/shared'
import { partialMatchKey, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query'
import { activityHref, activityText } from '@/lib/activity-text'
import { api } from '@/lib/api-client'
import { firstRead } from '@/lib/first-read'
import { i18n } from '@/lib/i18n'
import { notify } from '@/lib/notify'
import { failureKey, failureText, translateServerError } from '@/lib/server-errors'
import { getSession, subscribeSession, updateSessionUser } from '@/lib/session'
import { type EventCursor, createEventCursor } from './event-cursor'
import { RECENT_ACTIVITIES_KEY } from './keys'
import { type RealtimeSocket, keepConnected } from './reconnect'

export interface RealtimeOptions {
  queryClient: QueryClient
  /** Opens an activity's page from its toast. */
  navigate(href: string): void
  /** The last event id seen, kept across reconnections (a new one when left out). */
  cursor?: EventCursor
}

/** What a connection fetches again: what the app's screens show. */
const ON_SCREEN: QueryKey[] = [['dashboard'], ['items'], ['circles'], ['blocks']]

/**
 * What each server event does (spec 000 §4): queries that show the changed data are refetched, so an
 * open page updates without a reload. Payloads carry ids only; the data comes through the API.
 */
export function handleEvents(
  socket: RealtimeSocket,
  { queryClient, navigate, cursor = createEventCursor() }: RealtimeOptions,
) {
  // What the events sent again on connecting (before `connected`) ask to fetch again is fetched once,
  // at `connected`: a page's first connection may get a dozen.
  let replayed: Map<string, QueryKey> | undefined
  let firstConnection = false
  const refresh = (...keys: QueryKey[]) => {
    for (const queryKey of keys) {
      if (replayed) replayed.set(JSON.stringify(queryKey), queryKey)
      else void queryClient.invalidateQueries({ queryKey })
    }
  }
  socket.on('connect', () => {
    replayed = new Map()
    firstConnection = cursor.auth().lastEventId === undefined
  })
  // Whatever happened while the socket was down (or before it first came up) arrived as no event: on
  // every connection, what is on screen is fetched again. The events missed since the last one seen come
  // again before `connected` (the server replays them; a repeat is skipped), so a missed request still
  // shows its toast. A page's first connection says when the page first read its data (lib/first-read.ts):
  // the server then sends the events since (`replayedSince`), and only what the page had from before
  // (its stored queries, offline reading) is fetched again (docs/decisions/0067).
  socket.on('connected', ({ lastEventId, replayedSince }) => {
    cursor.connected(lastEventId)
    const asked = [...(replayed?.values() ?? [])]
    replayed = undefined
    firstConnection = false
    const read = replayedSince ? firstRead() : undefined
    const older = (query: Query) => read === undefined || query.state.dataUpdatedAt < read.wallAt
    // One pass, so no query is asked for twice (a second ask would cancel the first).
    void queryClient.invalidateQueries({
      predicate: (query) =>
        asked.some((key) => partialMatchKey(query.queryKey, key)) ||
        (ON_SCREEN.some((key) => partialMatchKey(query.queryKey, key)) && older(query)),
    })
  })
  // The missed events are no longer kept: everything is fetched again.
  socket.on('resync', () => void queryClient.invalidateQueries())
  socket.on('new_activity', (activity: TActivity, id) => {
    if (!cursor.fresh(id)) return
    queryClient.setQueryData<TActivity[]>(RECENT_ACTIVITIES_KEY, (list) =>
      list
        ? [activity, ...list.filter((a) => a.id !== activity.id)].slice(0, LIMITS.dashboardActivities)
        : list,
    )
    refresh(['dashboard', 'stats'])
    // Sent again to a page's first connection: it happened while the page loaded, and the page shows it.
    if (firstConnection) return
    notify.info(activityText(i18n.t, activity), {
      action: {
        label: i18n.t('activity.view', { ns: 'common' }),
        onClick: () => navigate(activityHref(activity)),
      },
    })
  })
  socket.on('handover_update', ({ circleId }, id) => {
    if (cursor.fresh(id)) refresh(['dashboard'], ['items'], ['blocks'], ['circles', circleId])
  })
  socket.on('item_update', ({ circleId }, id) => {
    if (cursor.fresh(id)) refresh(['dashboard'], ['items'], ['circles', circleId])
  })
  socket.on('circle_update', (_payload, id) => {
    if (cursor.fresh(id)) refresh(['circles'], ['dashboard'])
  })
  socket.on('circle_joined', (_payload, id) => {
    if (cursor.fresh(id)) refresh(['circles'], ['dashboard'], ['items'])
  })
  socket.on('circle_left', (_payload, id) => {
    if (cursor.fresh(id)) refresh(['circles'], ['dashboard'], ['items'], ['blocks'])
  })
  // Issue 29: another device cosigned the circle's checkpoint. An open ledger page of the circle checks
  // again (its checkpoint with the new cosignature), so a split view shows within seconds.
  socket.on('ledger_cosigned', ({ circleId }, id) => {
    if (cursor.fresh(id)) refresh(['ledger', 'verification', circleId])
  })
  socket.on('error', (payload) => {
    notify.error(failureText(payload, translateServerError(MESSAGES.websocketError)))
  })
}

/**
 * The real-time connection follows the session: it connects with the token after login or
 * registration, reconnects when the token changes, and disconnects on logout. socket.io's client loads
 * only once someone is signed in. Returns the cleanup.
 */
export function startRealtime(opts: RealtimeOptions): () => void {
  let connection: { token: string; stop(): void; retryNow(): void } | undefined
  let generation = 0
  // Kept while the same person is signed in, across new tokens and reconnections.
  let cursor = { userId: '', events: createEventCursor() }

  const sync = async () => {
    const { token, user } = getSession()
    if (connection?.token === token) return
    connection?.stop()
    connection = undefined
    const mine = ++generation
    if (!token || !user) return
    if (cursor.userId !== user.id) cursor = { userId: user.id, events: createEventCursor() }
    const events = cursor.events
    const { io } = await import('socket.io-client')
    if (mine !== generation) return
    const socket: RealtimeSocket = io({
      path: SOCKET.path,
      // Read at every (re)connection: the last event id seen, so the server sends what was missed.
      // A first connection: when the page first read its data instead (lib/first-read.ts).
      auth: (send) => {
        const resume = events.auth()
        const since = resume.lastEventId === undefined ? firstRead()?.since : undefined
        send({ token, ...resume, ...(since && { since }) })
      },
      transports: ['polling', 'websocket'],
      timeout: SOCKET.timeoutMs,
      reconnection: false,
      autoConnect: false,
    })
    handleEvents(socket, { ...opts, cursor: events })
    socket.on('connect_error', (error) => {
      // A refused token: the API answers 401 as well, which ends the session everywhere.
      if (failureKey(error) === 'unauthorized') {
        // Spec 000 §4: a status check that finds the email verified updates the stored user.
        void api
          .get(`/users/status/${encodeURIComponent(user.id)}`, ZStatusResponse)
          .then((status) => {
            if (status.emailVerified && !user.emailVerified)
              updateSessionUser({ ...user, emailVerified: true })
          })
          .catch(() => undefined)
      }
    })
    const kept = keepConnected(socket, {
      onGiveUp: () => notify.error(translateServerError(MESSAGES.realtimeUnavailable)),
      onRefused: (_message, refusal) =>
        notify.error(failureText(refusal, translateServerError(MESSAGES.websocketError))),
    })
    connection = { token, ...kept }
  }

  const retry = () => connection?.retryNow()
  const onVisible = () => {
    if (document.visibilityState === 'visible') retry()
  }
  void sync()
  const unsubscribe = subscribeSession(() => void sync())
  window.addEventListener('online', retry)
  document.addEventListener('visibilitychange', onVisible)
  return () => {
    unsubscribe()
    window.removeEventListener('online', retry)
    document.removeEventListener('visibilitychange', onVisible)
    generation++
    connection?.stop()
  }
}

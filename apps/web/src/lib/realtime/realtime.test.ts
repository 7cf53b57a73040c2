import type { TActivity } from '@circles/shared'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as firstReadModule from '@/lib/first-read'
import { initI18n } from '@/lib/i18n'
import { createQueryClient } from '@/lib/query-client'
import { RECENT_ACTIVITIES_KEY } from './keys'
import { handleEvents } from './realtime'
import type { RealtimeSocket } from './reconnect'

const toast = vi.hoisted(() => ({ info: vi.fn(), error: vi.fn() }))
vi.mock('@/lib/notify', () => ({ notify: toast }))

function fakeSocket() {
  const listeners = new Map<string, (...args: unknown[]) => void>()
  return {
    on(event: string, listener: (...args: unknown[]) => void) {
      listeners.set(event, listener)
    },
    /** A server event; room events carry their event id second. */
    receive(event: string, payload?: unknown, id?: number) {
      listeners.get(event)!(payload, id)
    },
  }
}

const activity = (n: number): TActivity => ({
  id: `66666666-6666-4666-8666-6666666666${String(n).padStart(2, '0')}`,
  type: 'NEW_ITEM',
  timestamp: '2026-11-24T10:00:00.000Z',
  title: 'x',
  data: {
    id: '33333333-3333-4333-8333-333333333333',
    name: `Thing ${n}`,
    owner: { name: 'Ida' },
    circle: { id: '11111111-1111-4111-8111-111111111111', name: 'Linden Street' },
  },
})

async function setup() {
  await initI18n('en')
  const queryClient = createQueryClient()
  const socket = fakeSocket()
  const navigate = vi.fn()
  handleEvents(socket as unknown as RealtimeSocket, { queryClient, navigate })
  return { queryClient, socket, navigate }
}

afterEach(() => {
  vi.clearAllMocks()
  vi.restoreAllMocks()
})

describe('real-time events', () => {
  it('put a new activity in front of the feed (at most ten) and announce it with a way to open it', async () => {
    const { queryClient, socket, navigate } = await setup()
    queryClient.setQueryData(
      RECENT_ACTIVITIES_KEY,
      Array.from({ length: 10 }, (_, i) => activity(i)),
    )
    socket.receive('new_activity', activity(42))
    const feed = queryClient.getQueryData<TActivity[]>(RECENT_ACTIVITIES_KEY)!
    expect(feed).toHaveLength(10)
    expect(feed[0]!.id).toBe(activity(42).id)
    expect(toast.info).toHaveBeenCalledWith('Ida added Thing 42 to Linden Street', expect.anything())
    toast.info.mock.calls[0]![1].action.onClick()
    expect(navigate).toHaveBeenCalledWith('/items/33333333-3333-4333-8333-333333333333')
  })

  it('tell a member live that the admin removed them, and the item transfers why they happened (issue 23)', async () => {
    const { socket, navigate } = await setup()
    const circle = { id: '11111111-1111-4111-8111-111111111111', name: 'Linden Street' }
    socket.receive('new_activity', {
      ...activity(1),
      type: 'REMOVED_FROM_CIRCLE',
      data: { circle, admin: { name: 'Ida' } },
    })
    expect(toast.info).toHaveBeenLastCalledWith(
      'You were removed from Linden Street by Ida',
      expect.anything(),
    )
    toast.info.mock.lastCall![1].action.onClick()
    expect(navigate).toHaveBeenLastCalledWith(`/circles/${circle.id}`)
    const transfer = (reason?: 'LEFT' | 'REMOVED') => ({
      ...activity(2),
      type: 'AUTO_TRANSFER',
      data: {
        item: { id: '33333333-3333-4333-8333-333333333333', name: 'Drill' },
        sender: { name: 'Ben' },
        receiver: { name: 'Ida' },
        circleId: circle.id,
        handoverId: null,
        ...(reason ? { reason } : {}),
      },
    })
    socket.receive('new_activity', transfer('REMOVED'))
    expect(toast.info).toHaveBeenLastCalledWith(
      'Drill went back from Ben to Ida when the admin removed Ben from the circle',
      expect.anything(),
    )
    socket.receive('new_activity', transfer('LEFT'))
    expect(toast.info).toHaveBeenLastCalledWith(
      'Drill went back from Ben to Ida when Ben left the circle',
      expect.anything(),
    )
    socket.receive('new_activity', transfer())
    expect(toast.info).toHaveBeenLastCalledWith('Drill went back from Ben to Ida', expect.anything())
  })

  it('refetch the dashboard, items, ledger and the circle on a handover update', async () => {
    const { queryClient, socket } = await setup()
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
    socket.receive('handover_update', { handoverId: 'h', itemId: 'i', circleId: 'c', status: 'CONFIRMED' })
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([
      ['dashboard'],
      ['items'],
      ['blocks'],
      ['circles', 'c'],
    ])
  })

  it('check an open ledger page of the circle again when another device cosigned its checkpoint (issue 29)', async () => {
    const { queryClient, socket } = await setup()
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
    socket.receive('ledger_cosigned', { circleId: 'c', size: 3 }, 7)
    socket.receive('ledger_cosigned', { circleId: 'c', size: 3 }, 7)
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([
      ['ledger', 'verification', 'c'],
    ])
  })

  it("show the server's error, or 'WebSocket error occurred'", async () => {
    const { socket } = await setup()
    socket.receive('error', { message: 'Forbidden' })
    socket.receive('error', {})
    expect(toast.error.mock.calls.map(([text]) => text)).toEqual(['Forbidden', 'WebSocket error occurred'])
  })
})

describe('what a connection fetches again (docs/decisions/0043, 0067)', () => {
  const SHOWN = [['dashboard', 'stats'], ['items', 'list'], ['circles'], ['blocks', 'c']]

  it('everything on screen, after a reconnection or when the server did not send what came since', async () => {
    const { queryClient, socket } = await setup()
    for (const key of SHOWN) queryClient.setQueryData(key, 'data')
    socket.receive('connected', { userId: 'u', lastEventId: 5 })
    expect(SHOWN.map((key) => queryClient.getQueryState(key)?.isInvalidated)).toEqual([
      true,
      true,
      true,
      true,
    ])
  })

  it('only what the page had before it first read, when the server sent the events since then', async () => {
    vi.spyOn(firstReadModule, 'firstRead').mockReturnValue({
      since: '2026-11-27T09:00:00.000Z',
      wallAt: 2000,
    })
    const { queryClient, socket } = await setup()
    for (const key of SHOWN) queryClient.setQueryData(key, 'data', { updatedAt: 3000 })
    // Stored on the device from an earlier visit (offline reading).
    queryClient.setQueryData(['items', 'list'], 'stored', { updatedAt: 1000 })
    socket.receive('connected', { userId: 'u', lastEventId: 5, replayedSince: true })
    expect(SHOWN.map((key) => queryClient.getQueryState(key)?.isInvalidated)).toEqual([
      false,
      true,
      false,
      false,
    ])
  })
})

describe("a page's first connection (docs/decisions/0067)", () => {
  it('fetches once what the events sent again ask for, and announces none of them', async () => {
    const { queryClient, socket } = await setup()
    queryClient.setQueryData(['items', 'list'], 'data')
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
    socket.receive('connect')
    socket.receive('item_update', { itemId: 'i', circleId: 'c' }, 4)
    socket.receive('new_activity', activity(4), 5)
    socket.receive('item_update', { itemId: 'j', circleId: 'c' }, 6)
    expect(invalidate).not.toHaveBeenCalled()
    socket.receive('connected', { userId: 'u', lastEventId: 6, replayedSince: true })
    expect(invalidate).toHaveBeenCalledTimes(1)
    expect(queryClient.getQueryState(['items', 'list'])?.isInvalidated).toBe(true)
    expect(toast.info).not.toHaveBeenCalled()
    // Live from now on.
    socket.receive('new_activity', activity(7), 7)
    expect(toast.info).toHaveBeenCalledTimes(1)
  })
})

describe('events sent again after a reconnection (docs/decisions/0043)', () => {
  it('announce a replayed activity once, and refetch once per event id', async () => {
    const { queryClient, socket } = await setup()
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
    socket.receive('new_activity', activity(7), 12)
    socket.receive('new_activity', activity(7), 12)
    expect(toast.info).toHaveBeenCalledTimes(1)
    socket.receive('item_update', { itemId: 'i', circleId: 'c' }, 13)
    const calls = invalidate.mock.calls.length
    socket.receive('item_update', { itemId: 'i', circleId: 'c' }, 13)
    expect(invalidate.mock.calls.length).toBe(calls)
    // An event without an id (the server could not write it down) always counts.
    socket.receive('new_activity', activity(8))
    socket.receive('new_activity', activity(8))
    expect(toast.info).toHaveBeenCalledTimes(3)
  })

  it('fetch everything again when the server says the missed events are gone', async () => {
    const { queryClient, socket } = await setup()
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
    socket.receive('resync')
    expect(invalidate).toHaveBeenCalledExactlyOnceWith()
  })
})

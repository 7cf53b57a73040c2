import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, render, renderHook, screen } from '@/test/testing-library'
import type { ReactNode } from 'react'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { Button } from '@/components/ui/button'
import { api, ApiError } from '@/lib/api-client'
import { verifyCircle } from '@/lib/ledger-verification/verify-circle'
import { initI18n } from '@/lib/i18n'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { CIRCLE, device, KEYS, log } from '@/test/ledger-device'
import {
  cacheKey,
  clearOfflineData,
  isOffline,
  NotStoredError,
  offlineDeps,
  persistQueryCache,
  PERSIST_MAX_AGE_MS,
  readPersistedCache,
  recordingProofs,
  reportNetworkFailure,
  reportServerAnswered,
  restoreQueryCache,
  shouldPersistQuery,
  storedProofs,
  storeProofs,
  useOffline,
} from './index'

// idb-keyval over a Map per store: happy-dom has no IndexedDB. The library, not our code, is replaced.
vi.mock('idb-keyval', () => {
  const stores = new Map<string, Map<string, unknown>>()
  type Store = Map<string, unknown>
  return {
    createStore: (db: string, name: string) => {
      const key = `${db}/${name}`
      if (!stores.has(key)) stores.set(key, new Map())
      return stores.get(key)!
    },
    get: async (key: string, store: Store) => store.get(key),
    set: async (key: string, value: unknown, store: Store) => void store.set(key, value),
    del: async (key: string, store: Store) => void store.delete(key),
    keys: async (store: Store) => [...store.keys()],
    clear: async (store: Store) => store.clear(),
    update: async (key: string, fn: (old: unknown) => unknown, store: Store) =>
      void store.set(key, fn(store.get(key))),
  }
})

const success = (queryKey: unknown[]) => ({ queryKey, state: { status: 'success' as const } }) as never

describe('which queries are kept on the device', () => {
  it('keeps the reading pages and the ledger keys, nothing else', () => {
    for (const key of [
      ['dashboard', 'stats'],
      ['circles'],
      ['circles', 'c1'],
      ['items', 'detail', 'i1'],
      ['items', 'circle', 'c1'],
      ['blocks', 'c1', null],
      ['ledger', 'keys'],
    ]) {
      expect(shouldPersistQuery(success(key)), JSON.stringify(key)).toBe(true)
    }
    for (const key of [
      ['ledger', 'verification', 'c1', 'h', false],
      ['profile', 'passkeys'],
      ['auth', 'x'],
    ]) {
      expect(shouldPersistQuery(success(key)), JSON.stringify(key)).toBe(false)
    }
    expect(shouldPersistQuery({ queryKey: ['circles'], state: { status: 'error' } } as never)).toBe(false)
  })
})

describe('the stored cache is one person’s', () => {
  beforeEach(() => clearOfflineData())

  function clientWith(data: unknown) {
    const client = new QueryClient()
    client.setQueryData(['circles'], data)
    client.setQueryData(['profile', 'passkeys'], ['secret'])
    return client
  }

  it('gives it back to the same person, without the queries it does not keep', async () => {
    await persistQueryCache(clientWith(['Ida’s circle']), 'ida')
    const next = new QueryClient()
    expect(await restoreQueryCache(next, 'ida')).toBe(true)
    expect(next.getQueryData(['circles'])).toEqual(['Ida’s circle'])
    expect(next.getQueryData(['profile', 'passkeys'])).toBeUndefined()
    // Shown, but stale: a page that mounts with a connection asks the server again, even within
    // staleTime of when the device stored it (a reload must not show an answered request as open).
    const state = next.getQueryCache().find({ queryKey: ['circles'] })!
    expect(state.state.isInvalidated).toBe(true)
    expect(state.state.dataUpdatedAt).toBeGreaterThan(0)
  })

  it('never to another person signing in on the device, and removes the first one’s', async () => {
    await persistQueryCache(clientWith(['Ida’s circle']), 'ida')
    const ben = new QueryClient()
    expect(await restoreQueryCache(ben, 'ben')).toBe(false)
    expect(ben.getQueryData(['circles'])).toBeUndefined()
    expect(await readPersistedCache('ida')).toBeUndefined()
  })

  it('drops a cache of another build or older than the max age', async () => {
    const now = Date.now()
    await persistQueryCache(clientWith(['old']), 'ida', now - PERSIST_MAX_AGE_MS - 1)
    expect(await restoreQueryCache(new QueryClient(), 'ida', now)).toBe(false)

    await persistQueryCache(clientWith(['other build']), 'ida')
    const entry = (await readPersistedCache('ida'))!
    const { set, createStore } = await import('idb-keyval')
    await set(
      cacheKey('ida'),
      { ...entry, buster: 'another build' },
      createStore('circles-offline', 'query-cache'),
    )
    expect(await restoreQueryCache(new QueryClient(), 'ida')).toBe(false)
  })

  it('is gone, with the ledger proofs and the page caches, after clearOfflineData', async () => {
    const deleted: string[] = []
    vi.stubGlobal('caches', {
      keys: async () => ['circles-pages', 'circles-assets', 'workbox-precache-v2'],
      delete: async (name: string) => deleted.push(name),
    })
    await persistQueryCache(clientWith(['x']), 'ida')
    await storeProofs({ circleId: 'c', note: 'n', size: 1, rootHash: 'r', proofs: {}, storedAt: 'now' })
    await clearOfflineData()
    expect(await readPersistedCache('ida')).toBeUndefined()
    expect(await storedProofs('c')).toBeUndefined()
    expect(deleted).toEqual(['circles-pages'])
    vi.unstubAllGlobals()
  })
})

describe('one offline state', () => {
  it('follows the browser’s events and a call that got no answer', async () => {
    const { result } = renderHook(() => useOffline())
    expect(result.current).toBe(false)
    act(() => void window.dispatchEvent(new Event('offline')))
    expect(result.current).toBe(true)
    act(() => void window.dispatchEvent(new Event('online')))
    expect(result.current).toBe(false)

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch')
      }),
    )
    await act(async () => {
      await expect(api.get('/circles')).rejects.toBeInstanceOf(ApiError)
    })
    expect(result.current).toBe(true)
    act(() => reportServerAnswered())
    expect(result.current).toBe(false)
    vi.unstubAllGlobals()
  })

  it('asks the server again soon after a call got no answer, then less often', async () => {
    vi.useFakeTimers()
    try {
      const fetchMock = vi.fn(async (..._args: unknown[]): Promise<Response> => {
        throw new TypeError('Failed to fetch')
      })
      vi.stubGlobal('fetch', fetchMock)
      const { result } = renderHook(() => useOffline())
      await act(async () => {
        await expect(api.get('/circles')).rejects.toBeInstanceOf(ApiError)
      })
      expect(result.current).toBe(true)
      fetchMock.mockClear()
      // Half a second, one more second, two more: the probe backs off while nothing answers.
      await act(() => vi.advanceTimersByTimeAsync(500))
      expect(fetchMock).toHaveBeenCalledTimes(1)
      expect(fetchMock.mock.calls[0]).toEqual(['/api/health', expect.anything()])
      await act(() => vi.advanceTimersByTimeAsync(1000))
      expect(fetchMock).toHaveBeenCalledTimes(2)
      await act(() => vi.advanceTimersByTimeAsync(1999))
      expect(fetchMock).toHaveBeenCalledTimes(2)
      // The server is back: the next probe ends the offline state (react-query resumes its queries).
      fetchMock.mockImplementation(async () => new Response('{}'))
      await act(() => vi.advanceTimersByTimeAsync(1))
      expect(result.current).toBe(false)
    } finally {
      vi.useRealTimers()
      vi.unstubAllGlobals()
    }
  })
})

describe('actions offline', () => {
  beforeAll(() => initI18n('en'))
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>
  )

  it('disables a button that asks the server, with the reason, and leaves the others', () => {
    act(() => reportNetworkFailure())
    render(
      <>
        <Button loading={false}>Save</Button>
        <Button>Cancel</Button>
        <Button loading={false} needsServer={false}>
          Log out
        </Button>
        <Button needsServer>Delete</Button>
      </>,
    )
    const save = screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement
    expect(save.disabled).toBe(true)
    expect(save.title).toBe("You're offline: connect to do this.")
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(false)
    expect((screen.getByRole('button', { name: 'Log out' }) as HTMLButtonElement).disabled).toBe(false)
    expect((screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(true)
    act(() => reportServerAnswered())
    expect(save.disabled).toBe(false)
    expect(save.title).toBe('')
  })

  it('does not send a change offline: it fails at once with the reason', async () => {
    const mutationFn = vi.fn(async () => 'sent')
    const { result } = renderHook(() => useGuardedMutation({ mutationFn }), { wrapper })
    act(() => reportNetworkFailure())
    expect(isOffline()).toBe(true)
    await expect(result.current.mutateAsync()).rejects.toMatchObject({ code: 'OFFLINE' })
    expect(mutationFn).not.toHaveBeenCalled()
    act(() => reportServerAnswered())
    await expect(result.current.mutateAsync()).resolves.toBe('sent')
  })
})

describe('the ledger check offline, on what the device stored', () => {
  beforeEach(() => clearOfflineData())

  it('verifies the stored blocks against the stored checkpoint and proofs, and catches a changed block', async () => {
    // Online, the proofs are built from the server's tiles (issue 29) and recorded.
    const server = log(6)
    const { deps: online, memory } = device(server)
    const { deps, recorded } = recordingProofs(online)
    const shown = server.blocks.slice(2, 5)
    const first = await verifyCircle(CIRCLE, shown, deps)
    if (first.state !== 'verified') throw new Error('online check failed')
    await storeProofs({ ...first, circleId: CIRCLE, proofs: recorded, storedAt: first.verifiedAt })

    const offline = offlineDeps(KEYS, async (id) => memory.get(id))
    expect(await verifyCircle(CIRCLE, shown, offline)).toMatchObject({ state: 'verified', size: 6 })

    // A block the device has no proof for: not checked, and not an alarm.
    await expect(verifyCircle(CIRCLE, server.blocks.slice(0, 1), offline)).rejects.toBeInstanceOf(
      NotStoredError,
    )

    // A stored block whose content changed does not hash to its recorded hash.
    const changed = { ...shown[0]!, content: { ...shown[0]!.content, item: { id: 'x', name: 'Other' } } }
    expect(await verifyCircle(CIRCLE, [changed], offline)).toMatchObject({ state: 'alarm', reason: 'hash' })
  })

  it('says it cannot check when nothing is stored', async () => {
    const offline = offlineDeps(KEYS, async () => undefined)
    await expect(verifyCircle(CIRCLE, log(2).blocks, offline)).rejects.toBeInstanceOf(NotStoredError)
  })
})

import { hexToHash, parseTilePath, tileBytes } from '@circles/ledger'
import type { TBlock } from '@circles/shared'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, renderHook, waitFor } from '@/test/testing-library'
import { CIRCLE, log } from '@/test/ledger-device'
import type * as Offline from '@/pwa/offline'
import type { RememberedCheckpoint } from './verify-circle'
import { type BlocksAnswer, useLedgerVerification } from './use-ledger-verification'

// The server: a log of 4 blocks; how often its newest checkpoint was asked for.
const server = vi.hoisted(() => ({ asked: 0, note: '', leaves: [] as Uint8Array[] }))
// This device's memory (IndexedDB in the browser).
const memory = vi.hoisted(() => new Map<string, unknown>())

vi.mock('./log-api', async () => {
  const { queryOptions } = await import('@tanstack/react-query')
  const { KEYS } = await import('@/test/ledger-device')
  return {
    logApi: {
      checkpoint: async () => (server.asked++, server.note),
      tile: async (_circleId: string, path: string) => tileBytes(server.leaves, parseTilePath(path)!),
    },
    ledgerKeysQuery: queryOptions({ queryKey: ['ledger', 'keys'], queryFn: async () => KEYS }),
  }
})
vi.mock('./checkpoint-store', () => ({
  rememberedCheckpoint: async (id: string) => memory.get(id),
  rememberCheckpoint: async (c: RememberedCheckpoint) => void memory.set(c.circleId, c),
}))
vi.mock('./tile-cache', () => ({
  keptTiles: async (keys: string[]) => keys.map(() => undefined),
  keepTiles: async () => undefined,
  tileKey: (circleId: string, path: string) => `${circleId}/${path}`,
}))
// The proofs kept for offline use (IndexedDB).
vi.mock('@/pwa/offline', async (actual) => ({
  ...(await actual<typeof Offline>()),
  storeProofs: async () => undefined,
}))
// The witness step (cosigning, the split view) has its own tests: here it passes the result on.
vi.mock('./witness-check', () => ({ witnessCheck: async (result: unknown) => result }))

const served = log(4)
server.note = served.note(4)
server.leaves = served.blocks.map((b) => hexToHash(b.hash))
const blocks = served.blocks as unknown as TBlock[]

function setUp(checkpoint?: string, fresh = true, isFetching = false) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  )
  const hook = renderHook((answer: BlocksAnswer) => useLedgerVerification(blocks, CIRCLE, answer), {
    wrapper,
    initialProps: { checkpoint, isStale: !fresh, isFetching },
  })
  return { client, hook }
}

afterEach(() => {
  server.asked = 0
  memory.clear()
})

describe("the ledger page's check (docs/decisions/0066)", () => {
  it('checks the checkpoint that came with the blocks without asking; asked again (ledger_cosigned), it asks', async () => {
    const { client, hook } = setUp(served.note(4))
    await waitFor(() => expect(hook.result.current[0]?.result).toMatchObject({ state: 'verified', size: 4 }))
    expect(server.asked).toBe(0)
    // What the socket's ledger_cosigned does: the newest checkpoint, with the new cosignature, is asked.
    await act(() => client.invalidateQueries({ queryKey: ['ledger', 'verification', CIRCLE] }))
    await waitFor(() => expect(server.asked).toBe(1))
    await waitFor(() => expect(hook.result.current[0]?.status).toBe('done'))
    expect(hook.result.current[0]?.result).toMatchObject({ state: 'verified', size: 4 })
  })

  it('checks blocks shown from an older answer when the fresh one is here, with its checkpoint', async () => {
    // A reload: the blocks this device stored are shown while they are asked again.
    const { hook } = setUp(served.note(3), false, true)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(hook.result.current[0]?.status).toBe('pending')
    expect(server.asked).toBe(0)
    hook.rerender({ checkpoint: served.note(4), isStale: false, isFetching: false })
    await waitFor(() => expect(hook.result.current[0]?.result).toMatchObject({ state: 'verified', size: 4 }))
    expect(server.asked).toBe(0)
  })

  it('asks when no checkpoint came, one of another circle, or one from an older answer', async () => {
    const stale = setUp(served.note(4), false)
    await waitFor(() => expect(stale.hook.result.current[0]?.status).toBe('done'))
    expect(server.asked).toBe(1)
    stale.hook.unmount()
    server.asked = 0

    const without = setUp()
    await waitFor(() => expect(without.hook.result.current[0]?.status).toBe('done'))
    expect(server.asked).toBe(1)
    without.hook.unmount()
    const other = served.note(4).replace(`/circle/${CIRCLE}`, '/circle/another')
    const mismatched = setUp(other)
    await waitFor(() => expect(mismatched.hook.result.current[0]?.status).toBe('done'))
    expect(mismatched.hook.result.current[0]?.result).toMatchObject({ state: 'verified' })
    expect(server.asked).toBe(2)
  })
})

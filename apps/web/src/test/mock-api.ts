import { vi } from 'vitest'

export type ApiHandler = (body: unknown, init: RequestInit) => Response | Promise<Response>

export function json(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })
}

const keyOf = (input: RequestInfo | URL, init?: RequestInit) => `${init?.method ?? 'GET'} ${String(input)}`
const bodyOf = (init?: RequestInit) =>
  typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined

/**
 * Replaces fetch with answers per "METHOD /api/path" (exact, or a prefix ending in "*"). Unknown calls
 * fail the test loudly. The handlers object is read on every call, so a test may swap answers later.
 */
export function mockApi(handlers: Record<string, ApiHandler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const key = keyOf(input, init)
    const match = Object.entries(handlers).find(([pattern]) =>
      pattern.endsWith('*') ? key.startsWith(pattern.slice(0, -1)) : key === pattern,
    )
    if (!match) throw new Error(`Unexpected request: ${key}`)
    return match[1](bodyOf(init), init)
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

export type FetchMock = ReturnType<typeof mockApi>

/** The JSON bodies sent to one "METHOD /api/path". */
export function sentBodies(fetchMock: FetchMock, key: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => keyOf(input, init) === key)
    .map(([, init]) => bodyOf(init))
}

/** How often "METHOD /api/path" was called. */
export const callCount = (fetchMock: FetchMock, key: string) => sentBodies(fetchMock, key).length

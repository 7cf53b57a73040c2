/**
 * When this page first asked the server for data (docs/decisions/0067): the real-time connection's first
 * handshake says so (`since`), and the server sends the events since then, so the page need not fetch
 * all it shows again once connected. The server's time comes from the first answer's Date header, less
 * the time since the first request went out, less a margin (the header counts whole seconds, and the
 * events' times are the database's clock): a little early, never late. An event just before then may
 * come again, which costs a refetch.
 */
const MARGIN_MS = 2000

let sent: { at: number; wallAt: number } | undefined
let serverSince: string | undefined

/** Called before every API request goes out. */
export function noteRequestSent(): void {
  sent ??= { at: performance.now(), wallAt: Date.now() }
}

/** Called with every answer's Date header. */
export function noteAnswer(date: string | null): void {
  if (serverSince !== undefined || sent === undefined || !date) return
  const server = Date.parse(date)
  if (!Number.isFinite(server)) return
  serverSince = new Date(server - (performance.now() - sent.at) - MARGIN_MS).toISOString()
}

/**
 * A screen that came rendered with its data (docs/decisions/0068): the server read it, at `since` by its
 * own clock (less the margin), before anything here asked.
 */
export function noteServerRead(since: string): void {
  sent ??= { at: performance.now(), wallAt: Date.now() }
  serverSince ??= since
}

export interface FirstRead {
  /** The server's time before the first read, for the handshake. */
  since: string
  /** This device's clock when the first request went out: data fetched before it is older than the page. */
  wallAt: number
}

export function firstRead(): FirstRead | undefined {
  return sent && serverSince ? { since: serverSince, wallAt: sent.wallAt } : undefined
}

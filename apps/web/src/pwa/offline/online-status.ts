// query-core, not react-query: the static pages' script uses this module and carries no UI library.
import { onlineManager } from '@tanstack/query-core'

/**
 * The one answer to "is this device offline?" (issue 27, docs/decisions/0054): the browser's
 * navigator.onLine with its online/offline events, and an API call that failed for want of a network
 * (a captive portal or a dead Wi-Fi leave navigator.onLine true). A network failure counts until the
 * next answer from the server or the next 'online' event; meanwhile a light probe asks whether the
 * server answers again: soon at first (a dropped connection or a restarting server is back in a
 * moment, and react-query holds every query while offline), then every PROBE_MAX_MS.
 */
const PROBE_FIRST_MS = 500
const PROBE_MAX_MS = 10_000
const PROBE_URL = '/api/health'

let browserOnline = typeof navigator === 'undefined' ? true : navigator.onLine !== false
let networkFailed = false
let probe: ReturnType<typeof setTimeout> | undefined
const listeners = new Set<() => void>()

export function isOffline(): boolean {
  return !browserOnline || networkFailed
}

function publish(): void {
  const offline = isOffline()
  // react-query pauses queries and mutations while offline; the probe below is what brings it back.
  onlineManager.setOnline(!offline)
  if (networkFailed && browserOnline) startProbe()
  else stopProbe()
  for (const listener of listeners) listener()
}

function startProbe(delay = PROBE_FIRST_MS): void {
  if (probe !== undefined || typeof window === 'undefined') return
  probe = setTimeout(() => {
    probe = undefined
    void askServer().then(() => {
      if (networkFailed && browserOnline) startProbe(Math.min(delay * 2, PROBE_MAX_MS))
    })
  }, delay)
}

async function askServer(): Promise<void> {
  try {
    await fetch(PROBE_URL, { method: 'GET', cache: 'no-store' })
    reportServerAnswered()
  } catch {
    // Still no answer: stays offline.
  }
}

function stopProbe(): void {
  if (probe === undefined) return
  clearTimeout(probe)
  probe = undefined
}

/** An API call failed without an answer (fetch threw): the device is offline until the server answers. */
export function reportNetworkFailure(): void {
  if (networkFailed) return
  networkFailed = true
  publish()
}

/** The server answered (any status): the network is back. */
export function reportServerAnswered(): void {
  if (!networkFailed) return
  networkFailed = false
  publish()
}

/** The browser's own events; tests call it with a fake window. */
export function watchBrowser(target: Pick<Window, 'addEventListener'>, online: () => boolean): void {
  target.addEventListener('online', () => {
    browserOnline = true
    networkFailed = false
    publish()
  })
  target.addEventListener('offline', () => {
    browserOnline = false
    publish()
  })
  browserOnline = online()
  if (!browserOnline) publish()
}

export function subscribeOnlineStatus(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** For tests: back to online with nothing failed. */
export function resetOnlineStatus(): void {
  browserOnline = true
  networkFailed = false
  publish()
}

if (typeof window !== 'undefined') watchBrowser(window, () => navigator.onLine !== false)

import type { DehydratedState } from '@tanstack/react-query'
import { noteServerRead } from '@/lib/first-read'

/** What a screen rendered on the server with its data carries (apps/server/src/lib/screen-pages.ts). */
interface RenderedScreen {
  /** The server's time, a little before it read the data: the real-time connection's `since`. */
  since: string
  /** Whom it was rendered for. */
  userId: string
  queries: DehydratedState
  /** The lazy parts it contains (lib/lazy-part.ts). */
  parts: string[]
}

/**
 * The data a screen rendered on the server came with (docs/decisions/0068), when it was rendered for
 * `userId`, with its answers made as fresh as this page: they are no older than its HTML. Read once; the
 * element goes. Undefined for any other page (a frame, index.html). A screen rendered for another session
 * (a cookie left behind) is taken out of `root`, which the app then renders from scratch.
 */
export function renderedScreen(root: HTMLElement, userId: string | undefined): RenderedScreen | undefined {
  const element = document.getElementById('circles-screen')
  if (!element) return undefined
  element.remove()
  const screen = parse(element.textContent ?? '')
  if (!screen || screen.userId !== userId) {
    root.replaceChildren()
    root.removeAttribute('data-frame')
    return undefined
  }
  noteServerRead(screen.since)
  // The server's clock dated them; this device's decides when they are stale (30 s, lib/query-client.ts).
  const now = Date.now()
  for (const query of screen.queries.queries) query.state.dataUpdatedAt = now
  return screen
}

function parse(json: string): RenderedScreen | undefined {
  try {
    const screen = JSON.parse(json) as RenderedScreen
    if (!Array.isArray(screen.queries?.queries) || typeof screen.since !== 'string') return undefined
    return { ...screen, parts: Array.isArray(screen.parts) ? screen.parts : [] }
  } catch {
    return undefined
  }
}

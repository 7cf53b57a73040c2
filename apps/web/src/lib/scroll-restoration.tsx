import { useEffect, useLayoutEffect, useRef } from 'react'
import { type Location, type NavigationType, useLocation, useNavigationType } from 'react-router'

/**
 * The history state of a navigation that keeps the scroll position, such as a list's own search and
 * filters: `navigate(to, { state: KEEP_SCROLL })` (react-router's `preventScrollReset` needs its data
 * router, which the app does not ship).
 */
export const KEEP_SCROLL = { keepScroll: true } as const

const keepsScroll = (state: unknown) =>
  typeof state === 'object' && state !== null && (state as { keepScroll?: unknown }).keepScroll === true

/** Where react-router's own ScrollRestoration kept them, so positions saved before still apply. */
const STORAGE_KEY = 'react-router-scroll-positions'

/** Scroll position by history entry (location.key); read from the tab's sessionStorage on first use. */
let positions: Record<string, number> | undefined

function savedPositions(): Record<string, number> {
  if (!positions) {
    try {
      positions = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '{}') as Record<string, number>
    } catch {
      positions = {}
    }
  }
  return positions
}

function scrollToAnchor(hash: string): boolean {
  try {
    const target = document.getElementById(decodeURIComponent(hash.slice(1)))
    target?.scrollIntoView()
    return target !== null
  } catch {
    // Not a decodable id: nothing to scroll to.
    return false
  }
}

function scrollFor(location: Location, action: NavigationType): void {
  // Back or Forward: where the reader was on that entry.
  const saved = action === 'POP' ? savedPositions()[location.key] : undefined
  if (typeof saved === 'number') return window.scrollTo(0, saved)
  if (location.hash && scrollToAnchor(location.hash)) return
  if (action !== 'POP' && keepsScroll(location.state)) return
  window.scrollTo(0, 0)
}

/**
 * Scroll on navigation (spec 000 §2, docs/decisions/0020), as react-router's <ScrollRestoration> did in a
 * data router: a new navigation (PUSH, REPLACE) starts at the top, or at its #anchor; Back and Forward
 * (POP) return to where the reader was on that entry, also after a reload of the tab.
 */
export function ScrollRestoration() {
  const location = useLocation()
  const action = useNavigationType()
  // The entry on screen. Its position is recorded as the reader scrolls: when the next page commits,
  // the old one's content is gone and the browser may already have clamped the position to the new one.
  const shown = useRef(location.key)

  useEffect(() => {
    // The browser's own restoration would jump on popstate, before the page it returns to has rendered.
    const manual = () => (window.history.scrollRestoration = 'manual')
    const record = () => (savedPositions()[shown.current] = window.scrollY)
    // Leaving the document (reload, another site): keep the positions for this tab's next load, and let
    // the browser restore this document itself should it come back from its cache.
    const leave = () => {
      record()
      try {
        sessionStorage.setItem(STORAGE_KEY, JSON.stringify(savedPositions()))
      } catch {
        // Storage full or refused: Back within this document still works from memory.
      }
      window.history.scrollRestoration = 'auto'
    }
    manual()
    window.addEventListener('scroll', record, { passive: true })
    window.addEventListener('pagehide', leave)
    window.addEventListener('pageshow', manual)
    return () => {
      window.removeEventListener('scroll', record)
      window.removeEventListener('pagehide', leave)
      window.removeEventListener('pageshow', manual)
      window.history.scrollRestoration = 'auto'
    }
  }, [])

  // Navigations are transitions: this runs when the new location commits, which is once its page (code
  // and strings) has rendered, so there is a page to scroll in.
  useLayoutEffect(() => {
    shown.current = location.key
    scrollFor(location, action)
  }, [location, action])

  return null
}

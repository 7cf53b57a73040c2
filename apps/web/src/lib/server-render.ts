import { useHydrated } from './use-hydrated'

/**
 * True in the server's render: the public pages' prerender and the screens rendered with their data
 * (docs/decisions/0068). Vite's server build makes it a constant.
 */
export const ON_SERVER: boolean = import.meta.env.SSR

/**
 * How many entries of a list that grows with its data (a ledger's blocks, a person's items) the server
 * renders: more than fill the first screen. The browser renders the rest once it has taken the screen over, so
 * a ledger of hundreds of blocks costs the server (one render at a time) no more than a short one
 * (docs/decisions/0069).
 */
const SERVER_LIST_LENGTH = 12

/**
 * `list`, or its first SERVER_LIST_LENGTH entries in the server's render and in the browser's hydration of
 * it, which must match it (docs/decisions/0070); the rest follow right after.
 */
export function useServerBoundList<T>(list: readonly T[]): readonly T[] {
  return useHydrated() ? list : list.slice(0, SERVER_LIST_LENGTH)
}

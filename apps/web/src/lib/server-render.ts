/**
 * True in the server's render: the public pages' prerender and the screens rendered with their data
 * (docs/decisions/0068). Vite's server build makes it a constant.
 */
export const ON_SERVER: boolean = import.meta.env.SSR

/**
 * How many entries of a list that grows with its data (a ledger's blocks, a person's items) the server
 * renders: more than fill the first screen. The browser renders the rest when it takes the screen over, so
 * a ledger of hundreds of blocks costs the server (one render at a time) no more than a short one
 * (docs/decisions/0069).
 */
const SERVER_LIST_LENGTH = 12

/** `list`, or on the server its first SERVER_LIST_LENGTH entries. */
export function firstOnServer<T>(list: readonly T[]): readonly T[] {
  return ON_SERVER ? list.slice(0, SERVER_LIST_LENGTH) : list
}

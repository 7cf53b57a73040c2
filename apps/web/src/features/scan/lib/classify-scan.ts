import { ITEM_CODE_PATH, normalizeItemCode } from '@circles/shared'

/** The query names an invitation link carries its token under (features/join reads them, spec 000 §2). */
const INVITATION_PARAMS = ['token', 'invitation', 'invite']

export type ScanResult =
  /** A label: `{origin}/i/<code>`; `path` is where the app goes (the /i/:code resolver). */
  | { kind: 'item'; path: string }
  /** An invitation QR code: `{origin}/join?token=…`; the join page checks the token. */
  | { kind: 'invitation'; path: string }
  /** Anything else: another site, our site's other pages, text, a code of another app. */
  | { kind: 'foreign' }

/**
 * What a scanned QR code is (issue 27, docs/decisions/0052 "Scanning"). Only links to our own origin
 * count: a label or invitation printed by another Circles server, or a look-alike address, is foreign,
 * so a scan never leads off the app and never to a page the person did not mean.
 */
export function classifyScan(text: string, origin: string): ScanResult {
  let url: URL
  try {
    url = new URL(text.trim())
  } catch {
    return { kind: 'foreign' }
  }
  if (url.origin !== origin || url.username || url.password) return { kind: 'foreign' }
  if (url.pathname.startsWith(ITEM_CODE_PATH)) {
    const code = normalizeItemCode(decodeURIComponent(url.pathname.slice(ITEM_CODE_PATH.length)))
    return code ? { kind: 'item', path: `${ITEM_CODE_PATH}${code}` } : { kind: 'foreign' }
  }
  if (url.pathname === '/join' || url.pathname === '/join/') {
    const params = new URLSearchParams()
    for (const name of INVITATION_PARAMS) {
      const value = url.searchParams.get(name)
      if (value !== null) params.set(name, value)
    }
    return params.size > 0 ? { kind: 'invitation', path: `/join?${params}` } : { kind: 'foreign' }
  }
  return { kind: 'foreign' }
}

import { LIMITS } from '@circles/shared'

/** The query names an invitation link may carry its token under, in the order they are read (spec 000 §2). */
export const TOKEN_PARAMS = ['token', 'invitation', 'invite'] as const

/**
 * Spec 000 §4: whitespace and backslashes removed, then anything that is not hex, then cut to 64.
 * Mail clients and chat apps wrap, escape or append to links; what is left is the token if anything is.
 */
export function cleanInvitationToken(raw: string): string {
  return raw
    .replace(/[\s\\]/g, '')
    .replace(/[^0-9a-f]/gi, '')
    .slice(0, LIMITS.invitationTokenMax)
}

export type TokenCheck =
  | { kind: 'valid'; token: string }
  /** No token parameter at all ('No invitation token found'). */
  | { kind: 'none' }
  /** A parameter that holds nothing usable ('Missing invitation token'). */
  | { kind: 'empty' }
  /** Under 32 hex characters after cleaning; `raw` is what the link carried. */
  | { kind: 'malformed'; raw: string }

/** Reads and cleans the token of a /join link (spec 000 §5: non-empty, at least 32 hex characters). */
export function readInvitationToken(params: URLSearchParams): TokenCheck {
  const values = TOKEN_PARAMS.map((name) => params.get(name)).filter((value) => value !== null)
  if (values.length === 0) return { kind: 'none' }
  // `?token=&invite=<hex>`: the first one that holds something counts.
  const raw = values.find((value) => value.trim() !== '') ?? ''
  const token = cleanInvitationToken(raw)
  if (!token) return { kind: 'empty' }
  if (token.length < LIMITS.invitationTokenMin) return { kind: 'malformed', raw: raw.trim() }
  return { kind: 'valid', token }
}

/** What a malformed link carried, short enough to show in a sentence. */
export function shownToken(raw: string, max = LIMITS.invitationTokenMax): string {
  return raw.length > max ? `${raw.slice(0, max)}…` : raw
}

import { createHmac, timingSafeEqual } from 'node:crypto'

export const NOTICE_KINDS = [
  'handoverRequests',
  'handoverAnswers',
  'invitations',
  // Issue 26: loan reminders and overdue notices, asks to borrow, loan changes (docs/decisions/0049).
  'loanReminders',
  'borrowRequests',
  'loanChanges',
] as const
export type NoticeKind = (typeof NOTICE_KINDS)[number]

export interface UnsubscribeTokens {
  issue(userId: string, kind: NoticeKind): string
  /** The user and kind a token was issued for, or null for anything forged or malformed. */
  verify(token: string): { userId: string; kind: NoticeKind } | null
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * Unsubscribe links that work without signing in and cannot be forged: `<userId>.<kind>.<mac>`, the
 * MAC an HMAC-SHA256 under a key derived from the session secret (so every instance agrees).
 */
export function createUnsubscribeTokens(secret: string): UnsubscribeTokens {
  const key = createHmac('sha256', secret).update('circles unsubscribe v1').digest()
  const mac = (body: string) => createHmac('sha256', key).update(body).digest()
  return {
    issue(userId, kind) {
      const body = `${userId}.${kind}`
      return `${body}.${mac(body).toString('base64url')}`
    },
    verify(token) {
      const [userId = '', kind = '', signature = '', ...rest] = token.split('.')
      if (rest.length > 0 || !UUID.test(userId) || !(NOTICE_KINDS as readonly string[]).includes(kind))
        return null
      const expected = mac(`${userId}.${kind}`)
      const given = Buffer.from(signature, 'base64url')
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
      return { userId, kind: kind as NoticeKind }
    },
  }
}

import type { Session } from '@/lib/session'

/**
 * Spec 000 §2: a signed-in visitor of the landing page goes straight to the dashboard. The path to go
 * to instead of `pathname`, or null to stay. Used by the prerendered pages' script (static-page-entry.ts).
 */
export function landingRedirect(pathname: string, session: Pick<Session, 'token'>): string | null {
  return pathname === '/' && session.token ? '/dashboard' : null
}

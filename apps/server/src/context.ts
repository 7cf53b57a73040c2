import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config'
import type { Database, Db, Executor } from './db/client'
import type { EventBus } from './lib/events'
import type { Metrics } from './lib/metrics'
import type { RateLimits } from './lib/rate-limits'
import type { UnsubscribeTokens } from './lib/unsubscribe-tokens'
import type { SessionTokens } from './modules/auth/session-token'

/**
 * Registration with an invitation token is verified at once when the token belongs to a pending
 * invitation for the same email. The circles module provides it (`invitationLookup`).
 */
export interface InvitationLookup {
  findPendingEmail(rawToken: string, tx: Executor): Promise<string | null>
}

/** Everything a service needs, built once in app.ts. Services never read process.env. */
export interface AppContext {
  config: Config
  database: Database
  db: Db
  sessionTokens: SessionTokens
  /** Signed links for switching an email notice off without signing in. */
  unsubscribeTokens: UnsubscribeTokens
  rateLimits: RateLimits
  /** Wakes the outbox worker after a transaction that queued an email has committed. */
  nudgeMail(): void
  invitations: InvitationLookup
  /** Domain events, published after commit; the real-time layer listens. */
  events: EventBus
  log: FastifyBaseLogger
  /** Prometheus recorders (lib/metrics.ts); no-ops when metrics are off. */
  metrics: Metrics
  /** "Now" for the lending rules (issue 26): `BuildAppOptions.clock`, a test clock in tests. */
  clock: () => Date
}

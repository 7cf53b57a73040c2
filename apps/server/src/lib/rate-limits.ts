import { createHash } from 'node:crypto'
import type pg from 'pg'
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from 'rate-limiter-flexible'
import { rateLimited } from './errors'

/**
 * The limits, named by what they protect (docs/decisions/0011-rate-limits.md). `points` requests per
 * `duration` seconds and key. Where a rule counts only failures, the service gives a successful call's
 * point back (`refund`).
 */
export const RATE_RULES = {
  /** Failed sign-ins per account email. */
  loginPerEmail: { points: 10, duration: 15 * 60 },
  /** Failed sign-ins per client address: a shared router signs many people in, and none of that counts. */
  loginPerAddress: { points: 100, duration: 15 * 60 },
  resetPerEmail: { points: 3, duration: 60 * 60 },
  resetPerAddress: { points: 20, duration: 60 * 60 },
  resendPerEmail: { points: 3, duration: 15 * 60 },
  resendPerAddress: { points: 20, duration: 60 * 60 },
  /** Verification links that were not valid, per client address. */
  verifyPerAddress: { points: 30, duration: 15 * 60 },
  contactPerEmail: { points: 5, duration: 60 * 60 },
  contactPerAddress: { points: 20, duration: 60 * 60 },
  /** Invitation emails (new and resent) an admin may send: enough for a whole circle, too few for spam. */
  invitationEmailsPerAccount: { points: 30, duration: 60 * 60 },
  /** Picture uploads per account: every one costs a re-encode; far more than anyone photographs. */
  uploadsPerAccount: { points: 120, duration: 60 * 60 },
  /**
   * Requests that read and hash a circle's whole log (proofs, verify, export), per account: each costs
   * time linear in the log. A ledger page asks for one or two per circle it shows; a member browsing
   * all day stays far below.
   */
  ledgerLogReadsPerAccount: { points: 600, duration: 60 * 60 },
} as const

/**
 * The ceiling on every API call per client address. A flood guard for this process, so it lives in its
 * memory: sharing it through the database would cost a write per request.
 */
export const API_CEILING = { points: 1200, duration: 60 }

export type RateRule = keyof typeof RATE_RULES
/** A rule and who it counts: an email, a client address or an account id. */
export type RateCheck = [rule: RateRule, subject: string]

export interface CountedAttempt {
  /** Gives the points back: the attempt succeeded, and the rule counts only failures. */
  refund(): Promise<void>
}

export interface RateLimits {
  /**
   * Counts one attempt on every check and throws 429 with `retryAfter` (seconds) at the first over its
   * limit.
   */
  consume(checks: RateCheck[], message: string): Promise<CountedAttempt>
}

/** Where the counters live: this process's memory, or a PostgreSQL table all instances share. */
export type RateStore = { kind: 'memory' } | { kind: 'postgres'; pool: pg.Pool }

/** The table of migration 0002; rate-limiter-flexible's own layout. */
const TABLE = 'rate_limits'

/** Subjects are emails and addresses: the store keeps only a hash of them. */
export function rateKey(subject: string) {
  return createHash('sha256').update(subject).digest('base64url').slice(0, 32)
}

function createLimiter(
  store: RateStore,
  name: string,
  rule: { points: number; duration: number },
): RateLimiterAbstract {
  const memory = new RateLimiterMemory({ keyPrefix: name, ...rule })
  if (store.kind === 'memory') return memory
  return new RateLimiterPostgres({
    storeClient: store.pool,
    storeType: 'pool',
    tableName: TABLE,
    tableCreated: true,
    keyPrefix: name,
    ...rule,
    // If the database does not answer, this process keeps counting on its own rather than failing open.
    insuranceLimiter: memory,
  })
}

/** Seconds until a refused key frees a point, at least 1. */
export function retryAfterSeconds(result: RateLimiterRes) {
  return Math.max(1, Math.ceil(result.msBeforeNext / 1000))
}

export function createRateLimits(store: RateStore): RateLimits {
  const limiters = Object.fromEntries(
    Object.entries(RATE_RULES).map(([name, rule]) => [name, createLimiter(store, name, rule)]),
  ) as Record<RateRule, RateLimiterAbstract>

  return {
    async consume(checks, message) {
      const counted: [RateLimiterAbstract, string][] = []
      for (const [rule, subject] of checks) {
        const limiter = limiters[rule]
        const key = rateKey(subject)
        try {
          await limiter.consume(key)
        } catch (refusal) {
          if (refusal instanceof RateLimiterRes) throw rateLimited(message, retryAfterSeconds(refusal))
          throw refusal
        }
        counted.push([limiter, key])
      }
      return {
        async refund() {
          await Promise.all(counted.map(([limiter, key]) => limiter.reward(key, 1)))
        },
      }
    },
  }
}

/** RATE_LIMITS=off, for benchmarks and local load tests. */
export const noRateLimits: RateLimits = {
  consume: async () => ({ refund: async () => undefined }),
}

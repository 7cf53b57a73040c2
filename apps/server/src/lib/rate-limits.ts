import { createHash } from 'node:crypto'
import type pg from 'pg'
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from 'rate-limiter-flexible'
import { MESSAGES, type MessageText } from '@circles/shared'
import { rateLimited } from './errors'

/**
 * The limits, named by what they protect (docs/decisions/0011-rate-limits.md). `points` requests per
 * `duration` seconds and key. Where a rule counts only failures, the service gives a successful call's
 * point back (`refund`).
 */
export const RATE_RULES = {
  /**
   * Failed sign-ins of one account from all addresses together. Over it, the account is being guessed
   * from many addresses: every address's second failure already waits (LOGIN_GUESSING). It never
   * refuses anyone by itself, so it cannot lock the owner out.
   */
  loginFailuresPerAccount: { points: 50, duration: 15 * 60 },
  /** Failed sign-ins per client address: a shared router signs many people in, and none of that counts. */
  loginPerAddress: { points: 100, duration: 15 * 60 },
  /**
   * Registrations per client address: each sends a verification email to an address someone typed.
   * 30 people behind one router may all register in the same minute, 100 in an hour (the hour's
   * count is an operator setting, REGISTRATIONS_PER_HOUR); a script gets 30 emails out, then waits.
   */
  registerPerAddress: { points: 100, duration: 60 * 60 },
  registerPerAddressBurst: { points: 30, duration: 60 },
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
  /**
   * "Download my data" per account (docs/decisions/0038): each reads every row and picture of the
   * account. A person downloads once; a retry after a broken download still fits.
   */
  dataExportsPerAccount: { points: 3, duration: 60 * 60 },
  /**
   * Calendar feed URLs that were not valid, per client address (issue 26): a calendar app polling a
   * valid feed gives its point back; guessing tokens stops after 30 misses.
   */
  calendarFeedMissesPerAddress: { points: 30, duration: 15 * 60 },
} as const

/**
 * Guessing one account's password from one address (docs/decisions/0026): the first `freeFailures`
 * failures of an account and address pair cost nothing; after that each attempt waits, 1 s after the
 * next failure, doubling up to 15 minutes. A success forgets the pair's failures. Only that pair waits:
 * the owner on another address is not slowed by it, and at their own address is slowed, never locked.
 */
export const LOGIN_GUESSING = {
  freeFailures: 5,
  firstWaitSeconds: 2,
  maxWaitSeconds: 15 * 60,
  /** A pair's failures are counted for this long from the first. */
  memorySeconds: 60 * 60,
}

/** The wait after the `k`-th failure beyond the free ones. */
export function loginWaitSeconds(k: number) {
  return Math.min(LOGIN_GUESSING.maxWaitSeconds, LOGIN_GUESSING.firstWaitSeconds * 2 ** Math.max(0, k - 1))
}

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

export interface LoginAttempt {
  /** The password was right: the account's and address's points come back, the pair's failures go. */
  succeeded(): Promise<void>
}

export interface RateLimits {
  /**
   * Counts one attempt on every check and throws 429 with `retryAfter` (seconds) at the first over its
   * limit.
   */
  consume(checks: RateCheck[], message: MessageText): Promise<CountedAttempt>
  /**
   * Counts a password sign-in of `email` from `address` as a failure until `succeeded()`; throws 429
   * with `retryAfter` when the address failed too often overall, or the pair must still wait.
   */
  login(email: string, address: string): Promise<LoginAttempt>
  /**
   * Forgets every counter kept for these subjects (emails, account ids, `email\naddress` pairs) under
   * every rule: a deleted account leaves no rate-limit rows behind (docs/decisions/0035).
   */
  forget(subjects: string[]): Promise<void>
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

/** What an operator may set (config.ts): registrations per address and hour. */
export interface RateSettings {
  registrationsPerHour?: number
  /** Told the limiter's name at every refusal (the metrics, lib/metrics.ts). */
  onRefusal?: (limiter: string) => void
}

export function createRateLimits(store: RateStore, settings: RateSettings = {}): RateLimits {
  const rules: Record<RateRule, { points: number; duration: number }> = {
    ...RATE_RULES,
    registerPerAddress: {
      ...RATE_RULES.registerPerAddress,
      points: settings.registrationsPerHour ?? RATE_RULES.registerPerAddress.points,
    },
  }
  const limiters = Object.fromEntries(
    Object.entries(rules).map(([name, rule]) => [name, createLimiter(store, name, rule)]),
  ) as Record<RateRule, RateLimiterAbstract>

  const loginFailures = createLimiter(store, 'loginFailuresPerPair', {
    // A counter, never a refusal: the waits below decide.
    points: Number.MAX_SAFE_INTEGER,
    duration: LOGIN_GUESSING.memorySeconds,
  })
  // One point per waiting period, which each call sets to its own length: the first attempt after a
  // wait takes the point and goes ahead; any other attempt meanwhile, even in parallel, finds it taken.
  const loginWait = createLimiter(store, 'loginWaitPerPair', {
    points: 1,
    duration: LOGIN_GUESSING.maxWaitSeconds,
  })
  const accountFailures = limiters.loginFailuresPerAccount

  const limits: RateLimits = {
    async consume(checks, message) {
      const counted: [RateLimiterAbstract, string][] = []
      for (const [rule, subject] of checks) {
        const limiter = limiters[rule]
        const key = rateKey(subject)
        try {
          await limiter.consume(key)
        } catch (refusal) {
          if (refusal instanceof RateLimiterRes) {
            settings.onRefusal?.(rule)
            throw rateLimited(message, retryAfterSeconds(refusal))
          }
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

    async login(email, address) {
      const perAddress = await limits.consume([['loginPerAddress', address]], MESSAGES.tooManyRequests)
      const pair = rateKey(`${email}\n${address}`)
      const account = rateKey(email)
      // Every attempt counts as a failure at once, so parallel guesses see each other's.
      const [failures, accountWide] = await Promise.all([
        loginFailures.penalty(pair, 1),
        accountFailures.penalty(account, 1),
      ])
      const underAttack = accountWide.consumedPoints > RATE_RULES.loginFailuresPerAccount.points
      // Guessed from many addresses: each address gets its first try only, then waits as if it had used
      // up its free failures already. (The first attempt beyond the free ones goes ahead and starts the
      // wait for the next.)
      const free = underAttack ? 0 : LOGIN_GUESSING.freeFailures
      const beyond = failures.consumedPoints - free
      if (beyond > 0) {
        const wait = loginWaitSeconds(underAttack ? beyond + LOGIN_GUESSING.freeFailures : beyond)
        const gate = await loginWait.penalty(pair, 1, { customDuration: wait })
        if (gate.consumedPoints > 1) {
          // Refused before any password check: not a failure.
          await Promise.all([
            perAddress.refund(),
            loginFailures.reward(pair, 1),
            accountFailures.reward(account, 1),
          ])
          settings.onRefusal?.('loginWaitPerPair')
          throw rateLimited(MESSAGES.tooManyRequests, retryAfterSeconds(gate))
        }
      }
      return {
        async succeeded() {
          await Promise.all([
            perAddress.refund(),
            accountFailures.reward(account, 1),
            loginFailures.delete(pair),
            loginWait.delete(pair),
          ])
        },
      }
    },

    async forget(subjects) {
      const all = [...Object.values(limiters), loginFailures, loginWait]
      await Promise.all(all.flatMap((limiter) => subjects.map((subject) => limiter.delete(rateKey(subject)))))
    },
  }
  return limits
}

/** RATE_LIMITS=off, for benchmarks and local load tests. */
export const noRateLimits: RateLimits = {
  consume: async () => ({ refund: async () => undefined }),
  login: async () => ({ succeeded: async () => undefined }),
  forget: async () => undefined,
}

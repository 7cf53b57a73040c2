import { rateLimited } from './errors'

export interface RateRule {
  max: number
  windowMs: number
}

export interface RateDecision {
  allowed: boolean
  /** Seconds until the window frees a slot; 0 when allowed. */
  retryAfterSeconds: number
}

export interface RateLimiter {
  hit(key: string, rule: RateRule): RateDecision
}

/**
 * Fixed-window counters in memory. Enough for one instance; several instances behind a load balancer
 * need a shared store (see docs/decisions/0004-rate-limits.md).
 */
export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter & { clear(): void } {
  const windows = new Map<string, { start: number; count: number; windowMs: number }>()
  let lastSweep = now()

  function sweep(t: number) {
    if (t - lastSweep < 60_000) return
    lastSweep = t
    for (const [key, w] of windows) if (t - w.start >= w.windowMs) windows.delete(key)
  }

  return {
    hit(key, rule) {
      const t = now()
      sweep(t)
      const w = windows.get(key)
      if (!w || t - w.start >= rule.windowMs) {
        windows.set(key, { start: t, count: 1, windowMs: rule.windowMs })
        return { allowed: true, retryAfterSeconds: 0 }
      }
      if (w.count >= rule.max) {
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((w.start + rule.windowMs - t) / 1000)),
        }
      }
      w.count += 1
      return { allowed: true, retryAfterSeconds: 0 }
    },
    clear: () => windows.clear(),
  }
}

/** Turns limits off entirely (RATE_LIMITS=off), for benchmarks and local load tests. */
export const noRateLimiter: RateLimiter = { hit: () => ({ allowed: true, retryAfterSeconds: 0 }) }

/** The limits of the accounts API, named by what they protect. */
export const RATE_RULES = {
  loginPerEmail: { max: 10, windowMs: 15 * 60_000 },
  loginPerIp: { max: 100, windowMs: 15 * 60_000 },
  resetPerEmail: { max: 3, windowMs: 60 * 60_000 },
  resetPerIp: { max: 20, windowMs: 60 * 60_000 },
  resendPerEmail: { max: 3, windowMs: 15 * 60_000 },
  resendPerIp: { max: 20, windowMs: 60 * 60_000 },
  verifyPerIp: { max: 30, windowMs: 15 * 60_000 },
  contactPerIp: { max: 5, windowMs: 60 * 60_000 },
  /** Invitation emails (new and resent) an admin may send: enough for a whole circle, too few for spam. */
  invitationEmailsPerUser: { max: 30, windowMs: 60 * 60_000 },
} satisfies Record<string, RateRule>

/** Counts a hit on every key and throws 429 with `retryAfter` at the first one over its limit. */
export function enforceRateLimits(
  limiter: RateLimiter,
  checks: [key: string, rule: RateRule][],
  message: string,
) {
  for (const [key, rule] of checks) {
    const decision = limiter.hit(key, rule)
    if (!decision.allowed) throw rateLimited(message, decision.retryAfterSeconds)
  }
}

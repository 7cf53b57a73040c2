import { describe, expect, it } from 'vitest'
import { createMemoryRateLimiter } from './rate-limiter'

describe('memory rate limiter', () => {
  it('allows up to max hits per window, then tells how long to wait', () => {
    let t = 1_000_000
    const limiter = createMemoryRateLimiter(() => t)
    const rule = { max: 2, windowMs: 60_000 }
    expect(limiter.hit('k', rule).allowed).toBe(true)
    expect(limiter.hit('k', rule).allowed).toBe(true)
    t += 15_000
    expect(limiter.hit('k', rule)).toEqual({ allowed: false, retryAfterSeconds: 45 })
    expect(limiter.hit('other', rule).allowed).toBe(true)
    t += 45_000
    expect(limiter.hit('k', rule).allowed).toBe(true)
  })
})

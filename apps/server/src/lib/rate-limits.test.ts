import { MESSAGES } from '@circles/shared'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createRateLimits, rateKey } from './rate-limits'

describe('rate limits in memory', () => {
  it('allows a rule its points, then refuses with the seconds to wait', async () => {
    const limits = createRateLimits({ kind: 'memory' })
    for (let i = 0; i < 3; i++)
      await limits.consume([['resetPerEmail', 'ada@example.com']], MESSAGES.tooManyRequests)
    await expect(
      limits.consume([['resetPerEmail', 'ada@example.com']], MESSAGES.tooManyRequests),
    ).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: MESSAGES.tooManyRequests,
      details: { retryAfter: expect.any(Number) },
    })
    const refused = await limits
      .consume([['resetPerEmail', 'ada@example.com']], MESSAGES.tooManyRequests)
      .catch((e) => e)
    expect(refused.details.retryAfter).toBeGreaterThan(3500)
    expect(refused.details.retryAfter).toBeLessThanOrEqual(3600)
    await limits.consume([['resetPerEmail', 'grace@example.com']], MESSAGES.tooManyRequests)
  })

  it('forgets every counter of a deleted account (issue 24): its email, its id, its pair', async () => {
    const limits = createRateLimits({ kind: 'memory' })
    for (let i = 0; i < 3; i++)
      await limits.consume([['resetPerEmail', 'ada@example.com']], MESSAGES.tooManyRequests)
    for (let i = 0; i < 30; i++)
      await limits.consume([['invitationEmailsPerAccount', 'ada-id']], MESSAGES.tooManyRequests)
    await expect(
      limits.consume([['resetPerEmail', 'ada@example.com']], MESSAGES.tooManyRequests),
    ).rejects.toMatchObject({ code: 'RATE_LIMITED' })
    await limits.forget(['ada@example.com', 'ada-id', 'ada@example.com\n10.0.0.1'])
    await limits.consume([['resetPerEmail', 'ada@example.com']], MESSAGES.tooManyRequests)
    await limits.consume([['invitationEmailsPerAccount', 'ada-id']], MESSAGES.tooManyRequests)
  })

  it('gives a refunded attempt its point back, so only failures add up', async () => {
    const limits = createRateLimits({ kind: 'memory' })
    for (let i = 0; i < 50; i++) {
      const attempt = await limits.consume([['loginPerAddress', '10.0.0.1']], MESSAGES.tooManyRequests)
      await attempt.refund()
    }
    for (let i = 0; i < 100; i++)
      await limits.consume([['loginPerAddress', '10.0.0.1']], MESSAGES.tooManyRequests)
    await expect(
      limits.consume([['loginPerAddress', '10.0.0.1']], MESSAGES.tooManyRequests),
    ).rejects.toMatchObject({
      code: 'RATE_LIMITED',
    })
  })

  it('stops at the first check over its limit', async () => {
    const limits = createRateLimits({ kind: 'memory' })
    for (let i = 0; i < 3; i++) {
      await limits.consume(
        [
          ['resendPerEmail', 'ada@example.com'],
          ['resendPerAddress', '10.0.0.1'],
        ],
        MESSAGES.tooManyRequests,
      )
    }
    await expect(
      limits.consume(
        [
          ['resendPerEmail', 'ada@example.com'],
          ['resendPerAddress', '10.0.0.1'],
        ],
        MESSAGES.tooManyRequests,
      ),
    ).rejects.toMatchObject({ code: 'RATE_LIMITED' })
    // The refused email did not count against the address: 16 more requests from it are allowed.
    for (let i = 0; i < 17; i++) {
      await limits.consume(
        [
          ['resendPerEmail', `u${i}@example.com`],
          ['resendPerAddress', '10.0.0.1'],
        ],
        MESSAGES.tooManyRequests,
      )
    }
    await expect(
      limits.consume(
        [
          ['resendPerEmail', 'z@example.com'],
          ['resendPerAddress', '10.0.0.1'],
        ],
        MESSAGES.tooManyRequests,
      ),
    ).rejects.toMatchObject({ code: 'RATE_LIMITED' })
  })

  it('keys by a hash: no email or address is kept', () => {
    const key = rateKey('ada@example.com')
    expect(key).not.toContain('ada')
    expect(key).toHaveLength(32)
    expect(rateKey('ada@example.com')).toBe(key)
  })

  describe('registrations per address, on the test clock', () => {
    afterEach(() => {
      vi.useRealTimers()
    })

    it('allow a burst of 30 a minute and 100 an hour', async () => {
      vi.useFakeTimers()
      const limits = createRateLimits({ kind: 'memory' })
      const register = () =>
        limits.consume(
          [
            ['registerPerAddressBurst', '10.0.0.9'],
            ['registerPerAddress', '10.0.0.9'],
          ],
          MESSAGES.tooManyRequests,
        )
      let accepted = 0
      for (let minute = 0; minute < 10; minute++) {
        for (let i = 0; i < 40; i++) {
          const refused = await register().then(
            () => undefined,
            (error: { details: { retryAfter: number } }) => error,
          )
          if (refused) {
            // A minute's burst waits for the minute, the hour's ceiling for the hour.
            expect(refused.details.retryAfter).toBeLessThanOrEqual(accepted < 100 ? 60 : 3600)
            break
          }
          accepted++
        }
        expect(accepted).toBe(Math.min(100, 30 * (minute + 1)))
        vi.advanceTimersByTime(61_000)
      }
      // The hour over, the address may register again.
      vi.advanceTimersByTime(60 * 60_000)
      await register()
    })

    it('take the hour’s count from the operator (REGISTRATIONS_PER_HOUR); the burst stays 30 a minute', async () => {
      vi.useFakeTimers()
      const limits = createRateLimits({ kind: 'memory' }, { registrationsPerHour: 45 })
      const register = () =>
        limits.consume(
          [
            ['registerPerAddressBurst', '10.0.0.7'],
            ['registerPerAddress', '10.0.0.7'],
          ],
          MESSAGES.tooManyRequests,
        )
      const accepted: number[] = []
      for (let minute = 0; minute < 3; minute++) {
        let n = 0
        while (
          await register().then(
            () => true,
            () => false,
          )
        )
          n++
        accepted.push(n)
        vi.advanceTimersByTime(61_000)
      }
      expect(accepted).toEqual([30, 15, 0])
    })
  })
})

import { LIMITS } from '@circles/shared'
import { describe, expect, it } from 'vitest'
import { ApiError } from '@/lib/api-client'
import { formatCountdown, retryAfterSeconds } from './countdown'

describe('formatCountdown', () => {
  it.each([
    [300, '05:00'],
    [299, '04:59'],
    [61, '01:01'],
    [59, '00:59'],
    [9, '00:09'],
    [0, '00:00'],
    [3725, '62:05'],
  ])('%i s reads %s', (seconds, text) => {
    expect(formatCountdown(seconds)).toBe(text)
  })

  it('rounds part seconds up, so the last second still shows 00:01', () => {
    expect(formatCountdown(0.2)).toBe('00:01')
  })

  it('never shows a negative or broken time', () => {
    expect(formatCountdown(-5)).toBe('00:00')
    expect(formatCountdown(Number.NaN)).toBe('00:00')
  })
})

describe('retryAfterSeconds', () => {
  const tooMany = (data: unknown) => new ApiError('Too many', { status: 429, code: 'RATE_LIMITED', data })

  it("takes the server's retryAfter", () => {
    expect(retryAfterSeconds(tooMany({ retryAfter: 42 }))).toBe(42)
  })

  it('falls back to the default wait when the answer has none or nonsense', () => {
    expect(retryAfterSeconds(tooMany({}))).toBe(LIMITS.defaultRetryAfterSeconds)
    expect(retryAfterSeconds(tooMany({ retryAfter: -1 }))).toBe(300)
    expect(retryAfterSeconds(tooMany('<html>'))).toBe(300)
    expect(retryAfterSeconds(new Error('boom'))).toBe(300)
  })
})

import { LIMITS } from '@circles/shared'
import { ApiError } from '@/lib/api-client'

/** Seconds as mm:ss (spec 000 §9): 300 → "05:00", 61 → "01:01". Minutes keep counting past 59. */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Number.isFinite(totalSeconds) ? Math.max(0, Math.ceil(totalSeconds)) : 0
  const mm = String(Math.floor(seconds / 60)).padStart(2, '0')
  const ss = String(seconds % 60).padStart(2, '0')
  return `${mm}:${ss}`
}

/** The wait a 429 asks for: its `retryAfter` (seconds) or the spec's default of 300 s. */
export function retryAfterSeconds(error: unknown): number {
  if (error instanceof ApiError && typeof error.data === 'object' && error.data !== null) {
    const value = (error.data as { retryAfter?: unknown }).retryAfter
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.ceil(value)
  }
  return LIMITS.defaultRetryAfterSeconds
}

import { useCallback, useEffect, useState } from 'react'

const TICK_MS = 250

interface CountdownState {
  endsAt: number
  now: number
}

/**
 * A countdown to a moment in time. Measured against the clock rather than counted in ticks, so a
 * throttled background tab still ends on time. `remaining` is in whole seconds, 0 when idle or done.
 */
export function useCountdown(): { remaining: number; start: (seconds: number) => void } {
  const [state, setState] = useState<CountdownState | null>(null)

  const start = useCallback((seconds: number) => {
    const now = Date.now()
    setState({ endsAt: now + seconds * 1000, now })
  }, [])

  const running = state !== null && state.now < state.endsAt
  useEffect(() => {
    if (!running) return
    const timer = setInterval(() => {
      setState((current) => (current ? { ...current, now: Date.now() } : current))
    }, TICK_MS)
    return () => clearInterval(timer)
  }, [running])

  const remaining = state ? Math.max(0, Math.ceil((state.endsAt - state.now) / 1000)) : 0
  return { remaining, start }
}

import { TIMINGS } from '@circles/shared'
import { useEffect, useState } from 'react'

export type Outcome = { tone: 'success' | 'error'; text: string }

/** A panel's last outcome: a success clears itself like every success banner, an error stays. */
export function useOutcome() {
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  useEffect(() => {
    if (outcome?.tone !== 'success') return
    const timer = setTimeout(() => setOutcome(null), TIMINGS.successBannerMs)
    return () => clearTimeout(timer)
  }, [outcome])
  return [outcome, setOutcome] as const
}

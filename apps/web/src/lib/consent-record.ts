import { LIMITS } from '@circles/shared'
import { readItem, removeItem, writeItem } from '@/lib/storage'

/**
 * The local consent record of spec 000 §3 ({necessary, analytics, marketing, timestamp}), mirrored
 * from the consent cookie by lib/consent.ts. Kept apart from the consent library so that analytics can
 * check consent without loading the dialog's code.
 */
export interface ConsentRecord {
  necessary: true
  analytics: boolean
  /** There is no marketing category; recorded as declined so the record keeps the spec's shape. */
  marketing: boolean
  /** ISO time of the last choice. */
  timestamp: string
}

export const CONSENT_RECORD_KEY = 'cookieConsent'
const DAY_MS = 24 * 60 * 60 * 1000

const listeners = new Set<() => void>()

function isRecord(value: unknown): value is ConsentRecord {
  if (typeof value !== 'object' || value === null) return false
  const record = value as Record<string, unknown>
  return (
    record.necessary === true &&
    typeof record.analytics === 'boolean' &&
    typeof record.marketing === 'boolean' &&
    typeof record.timestamp === 'string' &&
    !Number.isNaN(Date.parse(record.timestamp))
  )
}

export function readConsentRecord(): ConsentRecord | null {
  const raw = readItem(CONSENT_RECORD_KEY)
  if (!raw) return null
  try {
    const parsed: unknown = JSON.parse(raw)
    return isRecord(parsed) ? parsed : null
  } catch {
    return null
  }
}

function notify(): void {
  for (const listener of listeners) listener()
}

export function writeConsentRecord(
  choice: { analytics: boolean; marketing?: boolean },
  timestamp: Date = new Date(),
): ConsentRecord {
  const record: ConsentRecord = {
    necessary: true,
    analytics: choice.analytics,
    marketing: choice.marketing ?? false,
    timestamp: timestamp.toISOString(),
  }
  const before = readItem(CONSENT_RECORD_KEY)
  const serialised = JSON.stringify(record)
  writeItem(CONSENT_RECORD_KEY, serialised)
  if (before !== serialised) notify()
  return record
}

export function clearConsentRecord(): void {
  if (readItem(CONSENT_RECORD_KEY) === null) return
  removeItem(CONSENT_RECORD_KEY)
  notify()
}

/**
 * True only for a recorded yes to analytics that is younger than the consent cookie's lifetime
 * (LIMITS.cookieConsentDays): an old record must not outlive the choice it mirrors.
 */
export function hasAnalyticsConsent(nowMs: number = Date.now()): boolean {
  const record = readConsentRecord()
  if (!record?.analytics) return false
  return nowMs - Date.parse(record.timestamp) < LIMITS.cookieConsentDays * DAY_MS
}

/** Called after every change of the record, in this tab or another. */
export function subscribeConsentRecord(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === CONSENT_RECORD_KEY || event.key === null) notify()
  })
}

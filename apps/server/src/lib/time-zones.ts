/**
 * An IANA time zone Intl knows, in its canonical spelling; null for anything else (issue 26: the
 * browser reports its zone, docs/decisions/0049).
 */
export function canonicalTimeZone(zone: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone
  } catch {
    return null
  }
}

import { dateFormat } from '@/lib/intl-formats'
/** When the privacy policy and the terms last changed (spec 000 §2: May 20, 2023 by default). */
export const LEGAL_LAST_UPDATED = '2023-05-20'

/** A date-only ISO string as the reader's language writes it: "May 20, 2023", "20. Mai 2023". */
export function formatLegalDate(isoDate: string, language: string): string {
  // Parsed and formatted in UTC, so no time zone can move the day (also when prerendering).
  return dateFormat(language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${isoDate}T00:00:00Z`))
}

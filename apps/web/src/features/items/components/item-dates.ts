import { dateFormat } from '@/lib/intl-formats'
/** A date as the item screens show it: "Nov 24, 2026" / "24.11.2026" in the page's language. */
export function formatItemDate(iso: string, language: string): string {
  return dateFormat(language, { dateStyle: 'medium' }).format(new Date(iso))
}

/** A date as the item screens show it: "Nov 24, 2026" / "24.11.2026" in the page's language. */
export function formatItemDate(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(new Date(iso))
}

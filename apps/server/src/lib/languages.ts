import { type Language, supportedLanguage as supported } from '@circles/shared'

/** Accept-Language entries, highest quality first. */
function acceptedLanguages(header: string): string[] {
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return { tag, q: q ? Number(q.slice(2)) || 0 : 1, index }
    })
    .filter((entry) => entry.tag && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag)
}

/**
 * The page language, by the same rule as the browser (spec 000 §4): the stored choice (mirrored in the
 * `lang` cookie), then the browser's languages, then English.
 */
export function pickRequestLanguage(
  cookieHeader: string | undefined,
  acceptLanguage: string | undefined,
): Language {
  const cookie = cookieHeader
    ?.split(';')
    .map((c) => c.trim())
    .find((c) => c.startsWith('lang='))
    ?.slice('lang='.length)
  const fromCookie = supported(cookie)
  if (fromCookie) return fromCookie
  for (const tag of acceptedLanguages(acceptLanguage ?? '')) {
    const language = supported(tag)
    if (language) return language
  }
  return 'en'
}

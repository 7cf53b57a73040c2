/**
 * Where a page goes back to, carried in a `from` query parameter (issue 23: the item form returns to the
 * page it was opened from). Only a path of this app is accepted: an absolute URL, a protocol-relative
 * `//host`, a backslash trick (`/\host`) or anything with control characters gives null, so a crafted
 * link cannot send anyone to another site (no open redirect).
 */
export function safeAppPath(raw: string | null | undefined): string | null {
  if (!raw) return null
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (raw.length > 2048 || /[\u0000-\u001f\u007f\\]/.test(raw)) return null
  if (!raw.startsWith('/') || raw.startsWith('//')) return null
  try {
    const url = new URL(raw, 'http://circles.invalid')
    if (url.origin !== 'http://circles.invalid' || url.pathname.startsWith('//')) return null
    return `${url.pathname}${url.search}${url.hash}`
  } catch {
    return null
  }
}

/** `path` with `from` set to the page the visitor is on now (a pathname with its search). */
export function withFrom(path: string, from: string): string {
  const separator = path.includes('?') ? '&' : '?'
  return `${path}${separator}from=${encodeURIComponent(from)}`
}

/** The page a link opened here came from, or null when there is none or it is not one of ours. */
export function fromParam(search: string): string | null {
  return safeAppPath(new URLSearchParams(search).get('from'))
}

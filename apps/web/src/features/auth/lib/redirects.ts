/**
 * Where to send someone after signing in. Only paths of this app are followed: a returnUrl of
 * "https://evil.example" or "//evil.example" would otherwise make our login page an open redirect.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw) return null
  const value = raw.trim()
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null
  try {
    const url = new URL(value, 'http://circles.invalid')
    if (url.origin !== 'http://circles.invalid') return null
    return `${url.pathname}${url.search}${url.hash}`
  } catch {
    return null
  }
}

/** The invitation token of a returnUrl that leads back to /join?token=… (spec 000 §2), else null. */
export function invitationTokenFromReturnUrl(returnUrl: string | null | undefined): string | null {
  const path = safeReturnPath(returnUrl)
  if (!path || !path.startsWith('/join?')) return null
  const token = new URL(path, 'http://circles.invalid').searchParams.get('token')
  return token?.trim() ? token.trim() : null
}

/** The join page for an invitation token. */
export function joinPath(token: string): string {
  return `/join?token=${encodeURIComponent(token)}`
}

/** /register carrying the invitation along (its token, and the invited address when known). */
export function registerPath(invitation: { token: string | null; email: string | null }): string {
  const params = new URLSearchParams()
  if (invitation.token) params.set('token', invitation.token)
  if (invitation.email) params.set('email', invitation.email)
  const query = params.toString()
  return query ? `/register?${query}` : '/register'
}

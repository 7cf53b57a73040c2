/**
 * The address the login page starts with, handed over in the history entry's state (never in the URL,
 * so it stays out of logs and the address bar). Used after an email is verified (issue 23).
 */
export interface LoginState {
  email: string
}

export const loginState = (email: string | null | undefined): LoginState | undefined =>
  email ? { email } : undefined

/** The address from a history entry's state, when it holds one. */
export function prefillEmail(state: unknown): string | null {
  if (!state || typeof state !== 'object') return null
  const email = (state as Partial<LoginState>).email
  return typeof email === 'string' && email.length <= 254 ? email : null
}

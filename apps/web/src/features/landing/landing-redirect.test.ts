import { describe, expect, it } from 'vitest'
import { restoreSession } from '@/lib/session'
import { expiredToken, seedStoredSession, validToken } from '@/test/tokens'
import { landingRedirect } from './landing-redirect'

/** The session as the prerendered page's script reads it on load: from what a previous visit stored. */
function sessionAfterVisit(token: string | null) {
  if (token) seedStoredSession(token)
  return restoreSession()
}

describe('landingRedirect (spec 000 §2)', () => {
  it('sends a signed-in visitor of / to the dashboard', () => {
    expect(landingRedirect('/', sessionAfterVisit(validToken()))).toBe('/dashboard')
  })

  it('leaves a visitor without a session on the landing page', () => {
    expect(landingRedirect('/', sessionAfterVisit(null))).toBeNull()
  })

  it('treats an expired stored session as signed out', () => {
    expect(landingRedirect('/', sessionAfterVisit(expiredToken()))).toBeNull()
  })

  it('leaves the other static pages alone for a signed-in visitor', () => {
    const session = sessionAfterVisit(validToken())
    for (const path of ['/about', '/privacy', '/terms']) expect(landingRedirect(path, session)).toBeNull()
  })
})

import { afterEach, describe, expect, it, vi } from 'vitest'
import { seedStoredSession, validToken } from '@/test/tokens'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the static pages script (spec 000 §2)', () => {
  it('sends a signed-in visitor of / to the dashboard on load', async () => {
    expect(location.pathname).toBe('/')
    const replace = vi.spyOn(window.location, 'replace').mockImplementation(() => {})
    // What a previous visit stored; the script reads it when the prerendered page loads.
    seedStoredSession(validToken())
    vi.resetModules()
    await import('./static-page-entry')
    expect(replace).toHaveBeenCalledExactlyOnceWith('/dashboard')
  })
})

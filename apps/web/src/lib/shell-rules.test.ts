import { describe, expect, it } from 'vitest'
import { hasOwnChrome, PAGES_WITH_OWN_CHROME, shellChrome } from '@/lib/shell-rules'

describe('shell chrome (spec 000 §2)', () => {
  it.each(PAGES_WITH_OWN_CHROME)('leaves %s to its own header and footer', (path) => {
    expect(shellChrome(path, true)).toEqual({ header: false, footer: false })
    expect(shellChrome(path, false)).toEqual({ header: false, footer: false })
  })

  it('lists exactly the pages the spec names', () => {
    expect([...PAGES_WITH_OWN_CHROME].sort()).toEqual(
      [
        '/',
        '/about',
        '/contact',
        '/forgot-password',
        '/login',
        '/privacy',
        '/register',
        '/reset-password',
        '/terms',
      ].sort(),
    )
  })

  it.each([
    '/dashboard',
    '/verify',
    '/resend-verification',
    '/join',
    '/circles',
    '/circles/create',
    '/items/abc',
    '/blockchain/circle/1',
    '/profile',
    '/no/such/page',
  ])('gives %s the app header and, unless hidden, the footer', (path) => {
    expect(shellChrome(path, true)).toEqual({ header: true, footer: true })
    expect(shellChrome(path, false)).toEqual({ header: true, footer: false })
  })

  it('ignores a trailing slash and letter case, but not a longer path', () => {
    expect(hasOwnChrome('/about/')).toBe(true)
    expect(hasOwnChrome('/Login')).toBe(true)
    expect(hasOwnChrome('//')).toBe(true)
    expect(hasOwnChrome('/about/team')).toBe(false)
    expect(hasOwnChrome('/login-help')).toBe(false)
  })
})

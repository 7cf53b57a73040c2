import { describe, expect, it } from 'vitest'
import { invitationTokenFromReturnUrl, joinPath, registerPath, safeReturnPath } from './redirects'

describe('safeReturnPath', () => {
  it('keeps paths of this app with their query and hash', () => {
    expect(safeReturnPath('/dashboard')).toBe('/dashboard')
    expect(safeReturnPath('/items/42?tab=history#top')).toBe('/items/42?tab=history#top')
  })

  it.each([
    ['https://evil.example/steal'],
    ['//evil.example'],
    ['/\\evil.example'],
    ['javascript:alert(1)'],
    ['dashboard'],
    [''],
    [null],
  ])('refuses %j (open redirect or not a path)', (raw) => {
    expect(safeReturnPath(raw)).toBeNull()
  })
})

describe('invitationTokenFromReturnUrl', () => {
  it('finds the token of a way back to /join', () => {
    expect(invitationTokenFromReturnUrl('/join?token=abc123')).toBe('abc123')
  })

  it('ignores other ways back', () => {
    expect(invitationTokenFromReturnUrl('/dashboard?token=abc')).toBeNull()
    expect(invitationTokenFromReturnUrl('/join')).toBeNull()
    expect(invitationTokenFromReturnUrl('https://evil.example/join?token=abc')).toBeNull()
    expect(invitationTokenFromReturnUrl(null)).toBeNull()
  })
})

describe('links carrying an invitation', () => {
  it('builds /join and /register with the token (and the invited address)', () => {
    expect(joinPath('a b')).toBe('/join?token=a%20b')
    expect(registerPath({ token: 'abc', email: 'ann@example.com' })).toBe(
      '/register?token=abc&email=ann%40example.com',
    )
    expect(registerPath({ token: null, email: null })).toBe('/register')
  })
})

import { describe, expect, it } from 'vitest'
import { emails } from './templates'

describe('email templates', () => {
  it('renders the verification email in English and German, HTML and text, with the link', () => {
    const link = 'http://localhost:3000/verify?token=abc'
    const en = emails.verifyEmail('en', { name: 'Ada', link })
    const de = emails.verifyEmail('de', { name: 'Ada', link })
    expect(en.subject).toMatch(/Verify your email/)
    expect(de.subject).toMatch(/Bestätige/)
    for (const m of [en, de]) {
      expect(m.text).toContain(link)
      expect(m.html).toContain(`href="${link}"`)
    }
  })

  it('escapes user input in HTML', () => {
    const m = emails.passwordReset('en', { name: '<script>alert(1)</script>', link: 'http://x/?a=1&b=2' })
    expect(m.html).not.toContain('<script>')
    expect(m.html).toContain('&lt;script&gt;')
    expect(m.html).toContain('a=1&amp;b=2')
  })

  it('renders the password-changed notice in English and German, always sent, with the reset link', () => {
    const resetLink = 'http://localhost:3000/forgot-password'
    const en = emails.passwordChanged('en', { name: 'Ada', resetLink })
    const de = emails.passwordChanged('de', { name: 'Ada', resetLink })
    expect(en.subject).toBe('Your Circles password was changed')
    expect(de.subject).toBe('Dein Circles-Passwort wurde geändert')
    for (const m of [en, de]) {
      expect(m.kind).toBe('password-changed')
      expect(m.listUnsubscribe).toBeUndefined()
      expect(m.text).toContain(resetLink)
    }
  })
})

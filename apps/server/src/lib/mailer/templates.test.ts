import { describe, expect, it } from 'vitest'
import { emails, formatDueAt, type LoanStep } from './templates'

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

  it('renders every loan step in English and German, with the date and the unsubscribe line (issue 26)', () => {
    const steps: LoanStep[] = [
      'started',
      'returnStarted',
      'returned',
      'extensionRequested',
      'extensionAccepted',
      'extensionDeclined',
      'dueChanged',
      'recalled',
    ]
    const subjects = new Set<string>()
    for (const lang of ['en', 'de'] as const) {
      for (const step of steps) {
        const m = emails.loanChanged(lang, {
          step,
          recipientName: 'Lena',
          otherName: 'Ben',
          itemName: 'Drill',
          dueAt: formatDueAt(lang, '2026-05-12T21:59:00.000Z', 'Europe/Berlin'),
          link: 'http://localhost:3000/items/x',
          unsubscribeUrl: 'http://localhost:3000/unsubscribe?token=t',
        })
        expect(m.kind).toBe('loan-changed')
        expect(m.text).toContain('Drill')
        expect(m.text).toContain('/unsubscribe?token=t')
        subjects.add(m.subject)
      }
    }
    expect(subjects.size).toBe(16)
    // The date in the reader's language and time zone; UTC, named, when the zone is unknown or bad.
    expect(formatDueAt('en', '2026-05-12T21:59:00.000Z', 'Europe/Berlin')).toBe('12 May 2026 at 23:59')
    expect(formatDueAt('de', '2026-05-12T21:59:00.000Z', 'Europe/Berlin')).toBe('12. Mai 2026 um 23:59')
    expect(formatDueAt('en', '2026-05-12T21:59:00.000Z', null)).toBe('12 May 2026 at 21:59 UTC')
    expect(formatDueAt('en', '2026-05-12T21:59:00.000Z', 'Not/AZone')).toBe('12 May 2026 at 21:59 UTC')
    const lend = emails.handoverRequested('de', {
      senderName: 'Lena',
      receiverName: 'Ben',
      itemName: 'Bohrer',
      dueAt: '12. Mai 2026 um 23:59',
      link: 'http://x',
      unsubscribeUrl: 'http://u',
    })
    expect(lend.subject).toBe('Lena möchte dir Bohrer leihen')
    expect(lend.text).toContain('bis 12. Mai 2026 um 23:59 leihen')
  })
})

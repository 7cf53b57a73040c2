import { describe, expect, it } from 'vitest'
import { z } from 'zod/mini'
import { MESSAGES } from '../messages'
import { isPlainText, zEmail, zText } from './common'

describe('isPlainText (issue 22)', () => {
  it.each([
    ['NUL', '\u0000'],
    ['BEL', '\u0007'],
    ['ESC', '\u001b'],
    ['US', '\u001f'],
    ['DEL', '\u007f'],
    ['a lone high surrogate', '\ud83d'],
    ['a lone low surrogate', '\ude00'],
    ['surrogates in the wrong order', '\ude00\ud83d'],
  ])('refuses %s anywhere, in one line or many', (_name, bad) => {
    for (const text of [bad, `a${bad}`, `${bad}b`, `a${bad}b`]) {
      expect(isPlainText(text)).toBe(false)
      expect(isPlainText(text, { multiline: true })).toBe(false)
    }
  })

  it('takes tabs, LF and CRLF only where lines are allowed; a bare CR nowhere', () => {
    for (const text of ['a\tb', 'a\nb', 'a\r\nb']) {
      expect(isPlainText(text)).toBe(false)
      expect(isPlainText(text, { multiline: true })).toBe(true)
    }
    expect(isPlainText('a\rb', { multiline: true })).toBe(false)
    expect(isPlainText('a\r', { multiline: true })).toBe(false)
  })

  it('takes what people write: accents, emoji (a surrogate pair), right-to-left text and its marks', () => {
    for (const text of ['Zoë', 'e\u0301', '😀 👩‍👩‍👧', 'שלום', 'مرحبا', '\u202bembedded\u202c', '\u00a0', '']) {
      expect(isPlainText(text)).toBe(true)
    }
  })
})

describe('zText', () => {
  it('trims first, then reports the characters before any later rule', () => {
    const name = zText().check(z.minLength(3, 'too short'))
    expect(name.parse('  Ada \n')).toBe('Ada')
    expect(name.safeParse('\u0000').error?.issues[0]?.message).toBe(MESSAGES.invalidCharacters)
  })

  it('keeps a password as typed', () => {
    expect(zText({ trim: false }).parse(' pass word ')).toBe(' pass word ')
  })
})

describe('zEmail', () => {
  it.each(['a\u0000@example.com', 'a@exa\u0007mple.com', 'a@example.c\ud800om', 'a\u0085@example.com'])(
    'refuses %j as not an email address',
    (email) => {
      expect(zEmail().safeParse(email).error?.issues[0]?.message).toBe(MESSAGES.invalidEmail)
    },
  )

  it('still takes an address with a pair of surrogates or non-ASCII letters', () => {
    expect(zEmail().parse('Zoë@Example.com')).toBe('zoë@example.com')
    expect(zEmail().safeParse('😀@example.com').success).toBe(true)
  })
})

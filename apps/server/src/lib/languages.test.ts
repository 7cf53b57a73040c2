import { describe, expect, it } from 'vitest'
import { pickRequestLanguage } from './languages'

describe('pickRequestLanguage', () => {
  it('prefers the lang cookie, then Accept-Language by quality, then English', () => {
    expect(pickRequestLanguage('a=1; lang=de', 'en-US')).toBe('de')
    expect(pickRequestLanguage('lang=fr', 'de-DE,de;q=0.9')).toBe('de')
    expect(pickRequestLanguage(undefined, 'fr-FR, en;q=0.5, de;q=0.8')).toBe('de')
    expect(pickRequestLanguage(undefined, 'fr, es')).toBe('en')
    expect(pickRequestLanguage(undefined, undefined)).toBe('en')
    expect(pickRequestLanguage('lang=', 'de;q=0')).toBe('en')
  })
})

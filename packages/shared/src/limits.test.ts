import { describe, expect, it } from 'vitest'
import { supportedLanguage } from './limits'

describe('supportedLanguage', () => {
  it('names a supported language whatever the region and case, and nothing else', () => {
    expect(supportedLanguage('de')).toBe('de')
    expect(supportedLanguage('de-AT')).toBe('de')
    expect(supportedLanguage(' EN-gb ')).toBe('en')
    expect(supportedLanguage('fr')).toBeUndefined()
    expect(supportedLanguage('')).toBeUndefined()
    expect(supportedLanguage(null)).toBeUndefined()
    expect(supportedLanguage(undefined)).toBeUndefined()
  })
})

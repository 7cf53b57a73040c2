import { describe, expect, it } from 'vitest'
import { initials } from './initials'

describe('initials', () => {
  it('takes the first and last word', () => {
    expect(initials('Ada Lovelace')).toBe('AL')
    expect(initials('  ada  king   lovelace ')).toBe('AL')
    expect(initials('Grace')).toBe('G')
    expect(initials('Ölaf émile')).toBe('ÖÉ')
    expect(initials('   ')).toBe('?')
  })
})

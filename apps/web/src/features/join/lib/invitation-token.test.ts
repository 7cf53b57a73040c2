import { describe, expect, it } from 'vitest'
import { cleanInvitationToken, readInvitationToken, shownToken } from './invitation-token'

const HEX64 = 'ab12'.repeat(16)

describe('cleanInvitationToken (spec 000 §4)', () => {
  it('keeps a clean token as it is', () => {
    expect(cleanInvitationToken(HEX64)).toBe(HEX64)
  })

  it('removes whitespace and backslashes a mail client or chat app added', () => {
    expect(cleanInvitationToken(` ${HEX64.slice(0, 30)}\n\\${HEX64.slice(30)}\t `)).toBe(HEX64)
  })

  it('removes everything that is not hex, keeping upper-case hex digits', () => {
    expect(cleanInvitationToken('ab-CD_ef.01"g>z')).toBe('abCDef01')
  })

  it('cuts to 64 characters (e.g. a link with text glued to its end)', () => {
    expect(cleanInvitationToken(`${HEX64}deadbeef`)).toBe(HEX64)
  })

  it('leaves nothing of a token without hex', () => {
    expect(cleanInvitationToken('xyz \\ ')).toBe('')
  })
})

describe('readInvitationToken (spec 000 §2, §5)', () => {
  const read = (query: string) => readInvitationToken(new URLSearchParams(query))

  it('reads token, then invitation, then invite', () => {
    expect(read(`token=${HEX64}`)).toEqual({ kind: 'valid', token: HEX64 })
    expect(read(`invitation=${HEX64}`)).toEqual({ kind: 'valid', token: HEX64 })
    expect(read(`invite=${HEX64}`)).toEqual({ kind: 'valid', token: HEX64 })
    expect(read(`token=&invite=${HEX64}`)).toEqual({ kind: 'valid', token: HEX64 })
  })

  it('tells a missing parameter from one that holds nothing usable', () => {
    expect(read('')).toEqual({ kind: 'none' })
    expect(read('other=1')).toEqual({ kind: 'none' })
    expect(read('token=')).toEqual({ kind: 'empty' })
    expect(read('token=xyz')).toEqual({ kind: 'empty' })
  })

  it('needs at least 32 hex characters after cleaning', () => {
    expect(read(`token=${'a'.repeat(31)}`)).toEqual({ kind: 'malformed', raw: 'a'.repeat(31) })
    expect(read(`token=${'a'.repeat(32)}`)).toEqual({ kind: 'valid', token: 'a'.repeat(32) })
    expect(read('token=abc123xyz')).toEqual({ kind: 'malformed', raw: 'abc123xyz' })
  })

  it('shortens a long malformed value for the sentence it appears in', () => {
    expect(shownToken('x'.repeat(70))).toBe(`${'x'.repeat(64)}…`)
    expect(shownToken('abc')).toBe('abc')
  })
})

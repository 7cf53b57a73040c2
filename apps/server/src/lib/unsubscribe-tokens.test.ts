import { describe, expect, it } from 'vitest'
import { createUnsubscribeTokens } from './unsubscribe-tokens'

const USER = '0b6f3a52-2d6c-4f0e-9a51-7d2f0c1e9b11'

describe('unsubscribe tokens', () => {
  const tokens = createUnsubscribeTokens('x'.repeat(48))

  it('round-trips the user and the kind', () => {
    expect(tokens.verify(tokens.issue(USER, 'handoverAnswers'))).toEqual({
      userId: USER,
      kind: 'handoverAnswers',
    })
  })

  it('refuses a changed kind or user, another secret, and junk', () => {
    const token = tokens.issue(USER, 'invitations')
    const [, , mac] = token.split('.')
    expect(tokens.verify(`${USER}.handoverRequests.${mac}`)).toBeNull()
    expect(tokens.verify(`${USER.replace('0b', '0c')}.invitations.${mac}`)).toBeNull()
    expect(createUnsubscribeTokens('y'.repeat(48)).verify(token)).toBeNull()
    for (const junk of ['', 'a.b.c', `${token}.x`, `${USER}.invitations.`, `${USER}.everything.${mac}`]) {
      expect(tokens.verify(junk)).toBeNull()
    }
  })
})

import { MESSAGES } from '@circles/shared'
import { describe, expect, it } from 'vitest'
import { countsAsVerified } from './verify-email'

describe('countsAsVerified', () => {
  it.each([
    [MESSAGES.emailVerified, true],
    [MESSAGES.emailAlreadyVerified, true],
    ['This email is already verified.', true],
    [MESSAGES.verificationTokenInvalid, false],
    [undefined, false],
  ])('%j → %s', (message, expected) => {
    expect(countsAsVerified(message)).toBe(expected)
  })
})

import { MESSAGES } from '@circles/shared'
import { describe, expect, it } from 'vitest'
import { firstErrorMessage } from './form-errors'

describe('firstErrorMessage', () => {
  it('follows the order of the fields on screen, not the order errors arrived in', () => {
    const errors = {
      confirmPassword: { type: 'custom', message: MESSAGES.passwordsDontMatch },
      name: { type: 'custom', message: MESSAGES.nameMin },
    }
    expect(firstErrorMessage(errors, ['name', 'email', 'password', 'confirmPassword'])).toBe(MESSAGES.nameMin)
    expect(firstErrorMessage({}, ['name'])).toBeUndefined()
  })
})

import { MESSAGES } from '@circles/shared'
import { beforeAll, describe, expect, it } from 'vitest'
import { initI18n } from '@/lib/i18n'
import { fieldErrorText, firstErrorMessage } from './form-errors'
import type { AuthT } from './use-auth-translation'

const t: AuthT = (key) => `[${key}]`

beforeAll(async () => {
  const i18n = await initI18n('en')
  await i18n.changeLanguage('en')
})

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

describe('fieldErrorText', () => {
  it('says "This field is required" under an empty field instead of the whole-form message', () => {
    expect(fieldErrorText(MESSAGES.required, t)).toBe(MESSAGES.fieldRequired)
  })

  it("translates the page's own messages through the auth namespace", () => {
    expect(fieldErrorText('auth:passkey.emailRequired', t)).toBe('[passkey.emailRequired]')
  })

  it('passes shared messages through their translation', () => {
    expect(fieldErrorText(MESSAGES.invalidEmail, t)).toBe(MESSAGES.invalidEmail)
    expect(fieldErrorText(undefined, t)).toBeUndefined()
  })
})

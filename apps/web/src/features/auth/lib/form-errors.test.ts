import { MESSAGES } from '@circles/shared'
import { beforeAll, describe, expect, it } from 'vitest'
import { initI18n } from '@/lib/i18n'
import { fieldErrorText } from './form-errors'
import type { AuthT } from './use-auth-translation'

const t: AuthT = (key) => `[${key}]`

beforeAll(async () => {
  const i18n = await initI18n('en')
  await i18n.changeLanguage('en')
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

import { MESSAGES } from '@circles/shared'
import { beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '@/lib/api-client'
import { initI18n } from '@/lib/i18n'
import { errorMessage, messageKeyOf, translateServerError } from '@/lib/server-errors'

beforeAll(async () => {
  await initI18n('de')
})

describe('translateServerError', () => {
  it('maps a spec text back to its key and shows the German text', () => {
    expect(messageKeyOf(MESSAGES.userExists)).toBe('userExists')
    expect(translateServerError(MESSAGES.userExists)).toBe(
      'Zu dieser E-Mail-Adresse gibt es schon ein Konto. Bitte melde dich an.',
    )
    expect(translateServerError(MESSAGES.tokenExpired)).toBe(
      'Deine Sitzung ist abgelaufen. Bitte melde dich erneut an.',
    )
  })

  it('passes an unknown server text through unchanged', () => {
    expect(translateServerError('Failed to get circles: Failed to fetch')).toBe(
      'Failed to get circles: Failed to fetch',
    )
  })

  it('says something went wrong when there is no text', () => {
    expect(translateServerError(undefined)).toBe('Etwas ist schiefgelaufen')
    expect(translateServerError('')).toBe('Etwas ist schiefgelaufen')
  })

  it('reads the message of a thrown error', () => {
    expect(errorMessage(new ApiError(MESSAGES.forbidden, { status: 403 }))).toBe('Zugriff verweigert')
    expect(errorMessage('not an error')).toBe('Etwas ist schiefgelaufen')
  })
})

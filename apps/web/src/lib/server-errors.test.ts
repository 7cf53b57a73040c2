import { MESSAGES } from '@circles/shared'
import { beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '@/lib/api-client'
import { initI18n } from '@/lib/i18n'
import { errorMessage, failureMessage, messageKeyOf, translateServerError } from '@/lib/server-errors'

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

  it("shows the server's 503 while its database is away, in German (issue 22)", () => {
    const body = { message: MESSAGES.serviceUnavailable, code: 'SERVICE_UNAVAILABLE' }
    const error = new ApiError(body.message, { status: 503, code: body.code, data: body })
    expect(failureMessage(error, 'Failed to fetch data')).toBe(
      'Der Dienst ist gerade nicht erreichbar. Bitte versuch es gleich noch einmal.',
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

describe('failureMessage (spec 000 §8: the server message, else the error message, else a generic text)', () => {
  it('shows the server message, translated when it is a spec text', () => {
    const refused = new ApiError(MESSAGES.forbidden, { status: 403, data: { message: MESSAGES.forbidden } })
    expect(failureMessage(refused, 'Generic')).toBe('Zugriff verweigert')
    const other = new ApiError('Name is too long', { status: 400, data: { message: 'Name is too long' } })
    expect(failureMessage(other, 'Generic')).toBe('Name is too long')
  })

  it('keeps the text of a failure without an answer', () => {
    const offline = new ApiError('Failed to put me: Failed to fetch', { status: 0, code: 'NETWORK_ERROR' })
    expect(failureMessage(offline, 'Generic')).toBe('Failed to put me: Failed to fetch')
  })

  it('gives the generic text for an answer without a message', () => {
    expect(failureMessage(new ApiError(MESSAGES.somethingWentWrong, { status: 500 }), 'Generic')).toBe(
      'Generic',
    )
    const unparsed = new ApiError(MESSAGES.somethingWentWrong, {
      status: 200,
      code: 'INVALID_RESPONSE',
      data: { message: 'ok' },
    })
    expect(failureMessage(unparsed, 'Generic')).toBe('Generic')
    expect(failureMessage('not an error', 'Generic')).toBe('Generic')
  })
})

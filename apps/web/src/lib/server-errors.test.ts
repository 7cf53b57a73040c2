import { MESSAGES, type MessageKey } from '@circles/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { failureMessage as authFailureMessage } from '@/features/auth/lib/api-errors'
import { ApiError } from '@/lib/api-client'
import { initI18n, setLanguage } from '@/lib/i18n'
import {
  errorMessage,
  failureKey,
  failureMessage,
  failureText,
  messageKeyOf,
  translateServerError,
} from '@/lib/server-errors'
import german from '@/locales/de/errors.json'
import english from '@/locales/en/errors.json'

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
    const refused = new ApiError(MESSAGES.forbidden, { status: 403, data: { message: MESSAGES.forbidden } })
    expect(errorMessage(refused)).toBe('Zugriff verweigert')
    expect(errorMessage(new Error(MESSAGES.forbidden))).toBe('Zugriff verweigert')
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

/** A failed answer as the API client throws it, for a body the server sent. */
function answered(status: number, body: Record<string, unknown>) {
  const message = typeof body.message === 'string' ? body.message : MESSAGES.somethingWentWrong
  return new ApiError(message, { status, code: body.code as string | undefined, data: body })
}

describe('failureText: by key first (issue 23)', () => {
  const keys = Object.keys(MESSAGES) as MessageKey[]

  it('has an English and a German text for every key the server can send', () => {
    for (const key of keys) {
      expect(english[key], key).toBe(MESSAGES[key])
      expect(german[key], key).toBeTypeOf('string')
      expect(german[key], key).not.toBe('')
    }
  })

  it('shows the German text of a message the server reworded, by its key, for every key', () => {
    for (const key of keys) {
      const reworded = answered(400, { message: `${MESSAGES[key]} (reworded)`, code: 'CONFLICT', key })
      expect(failureText(reworded, 'Generic'), key).toBe(german[key])
      expect(failureMessage(reworded, 'Generic'), key).toBe(german[key])
      expect(errorMessage(reworded), key).toBe(german[key])
      expect(authFailureMessage(reworded), key).toBe(german[key])
    }
  })

  it('falls back to the server message for a key this app does not know, then to the generic text', () => {
    const newer = answered(409, {
      message: 'A sentence from a newer server',
      code: 'CONFLICT',
      key: 'brandNew',
    })
    expect(failureText(newer, 'Generic')).toBe('A sentence from a newer server')
    const oldServer = answered(403, { message: MESSAGES.forbidden, code: 'FORBIDDEN' })
    expect(failureText(oldServer, 'Generic')).toBe('Zugriff verweigert')
    expect(failureText(answered(500, {}), 'Generic')).toBe('Generic')
    expect(failureText(answered(502, { key: 'nonsense' }), 'Generic')).toBe('Generic')
    expect(authFailureMessage(answered(500, {}))).toBeUndefined()
  })

  it('keeps the text of a failure without an answer, and says nothing for a contract mismatch', () => {
    const offline = new ApiError('Failed to post login: Failed to fetch', {
      status: 0,
      code: 'NETWORK_ERROR',
    })
    expect(failureText(offline, 'Generic')).toBe('Failed to post login: Failed to fetch')
    expect(authFailureMessage(offline)).toBe('Failed to post login: Failed to fetch')
    const mismatch = new ApiError(MESSAGES.somethingWentWrong, {
      status: 200,
      code: 'INVALID_RESPONSE',
      data: { message: 'ok', key: 'forbidden' },
    })
    expect(failureText(mismatch, 'Generic')).toBe('Generic')
    expect(failureText(mismatch)).toBeUndefined()
  })

  it("reads a socket refusal's data and a socket error event's payload by key", () => {
    const refused = Object.assign(new Error('Too many sockets, reworded'), {
      data: { code: 'TOO_MANY_SOCKETS', retry: false, key: 'tooManySockets' },
    })
    expect(failureText(refused, 'Generic')).toBe(german.tooManySockets)
    expect(failureKey(refused)).toBe('tooManySockets')
    expect(failureText({ message: 'Forbidden!', code: 'FORBIDDEN', key: 'forbidden' }, 'Generic')).toBe(
      german.forbidden,
    )
    expect(failureText({ message: 'Unknown words' }, 'Generic')).toBe('Unknown words')
    expect(failureText({}, 'Generic')).toBe('Generic')
    expect(failureText(undefined, 'Generic')).toBe('Generic')
    expect(failureKey(new Error('Unauthorized'))).toBe('unauthorized')
    expect(failureKey(new Error('Anything else'))).toBeUndefined()
  })

  describe('in English', () => {
    beforeAll(async () => {
      await setLanguage('en')
    })
    afterAll(async () => {
      await setLanguage('de')
    })

    it("shows the key's English text, the server's rewording aside", () => {
      const reworded = answered(404, { message: 'Nothing here, sorry', code: 'NOT_FOUND', key: 'notFound' })
      expect(failureText(reworded, 'Generic')).toBe(MESSAGES.notFound)
    })
  })
})

import { LIMITS, MESSAGES, ZStatusResponse } from '@circles/shared'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { api, ApiError } from '@/lib/api-client'
import { getSession, startSession } from '@/lib/session'
import { expiredToken, testUser, validToken } from '@/test/tokens'

const fetchMock = vi.fn<typeof fetch>()

function answer(status: number, body?: unknown): Response {
  const text = body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body)
  return new Response(text, { status, headers: { 'Content-Type': 'application/json' } })
}

function sentRequest(call = 0): { url: string; init: RequestInit; headers: Record<string, string> } {
  const [url, init = {}] = fetchMock.mock.calls[call] ?? []
  return { url: String(url), init, headers: (init.headers ?? {}) as Record<string, string> }
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ApiError)
  return error as ApiError
}

beforeEach(() => {
  vi.useFakeTimers()
  fetchMock.mockReset()
  vi.stubGlobal('fetch', fetchMock)
})

afterEach(async () => {
  await vi.runAllTimersAsync() // let any pending logout finish before the next test
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('requests', () => {
  it('calls /api with a JSON body and the bearer token when signed in', async () => {
    const token = validToken()
    startSession(token, testUser)
    fetchMock.mockResolvedValueOnce(answer(200, { ok: true }))

    await expect(api.post('/circles', { name: 'Family' })).resolves.toEqual({ ok: true })

    const { url, init, headers } = sentRequest()
    expect(url).toBe('/api/circles')
    expect(init.method).toBe('POST')
    expect(init.body).toBe('{"name":"Family"}')
    expect(headers['Content-Type']).toBe('application/json')
    expect(headers.Authorization).toBe(`Bearer ${token}`)
  })

  it('sends no Authorization header and no body for a visitor GET', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, { status: 'ok' }))
    await api.get('/health')
    const { init, headers } = sentRequest()
    expect(headers.Authorization).toBeUndefined()
    expect(init.body).toBeUndefined()
  })

  it('validates the answer with the given schema', async () => {
    fetchMock.mockResolvedValueOnce(answer(200, { id: testUser.id, emailVerified: true, extra: 1 }))
    await expect(api.get(`/users/status/${testUser.id}`, ZStatusResponse)).resolves.toEqual({
      id: testUser.id,
      emailVerified: true,
    })

    fetchMock.mockResolvedValueOnce(answer(200, { id: 'nope' }))
    const error = await caught(api.get(`/users/status/${testUser.id}`, ZStatusResponse))
    expect(error.code).toBe('INVALID_RESPONSE')
    expect(error.message).toBe(MESSAGES.somethingWentWrong)
  })

  it('returns undefined for an empty answer', async () => {
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }))
    await expect(api.delete('/circles/1')).resolves.toBeUndefined()
  })
})

describe('errors', () => {
  it('carries the server message, code, status and body', async () => {
    const body = {
      message: 'Too many verification requests. Please wait before trying again.',
      code: 'RATE_LIMITED',
      retryAfter: 120,
    }
    fetchMock.mockResolvedValueOnce(answer(429, body))
    const error = await caught(api.post('/users/resend-verification', { email: 'a@b.co' }))
    expect(error.status).toBe(429)
    expect(error.message).toBe(body.message)
    expect(error.code).toBe('RATE_LIMITED')
    expect(error.data).toEqual(body)
  })

  it.each([
    ['no message field', { code: 'INTERNAL_ERROR' }],
    ['an empty message', { message: '' }],
    ['a non-JSON body', '<html>Bad gateway</html>'],
    ['no body', undefined],
  ])("falls back to 'Something went wrong' for %s", async (_label, body) => {
    fetchMock.mockResolvedValueOnce(answer(502, body))
    const error = await caught(api.get('/circles'))
    expect(error.message).toBe('Something went wrong')
    expect(error.status).toBe(502)
  })

  it('names the method and the last path segment on a network failure', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'))
    const error = await caught(api.post('/users/login', { email: 'a@b.co', password: 'x' }))
    expect(error.message).toBe('Failed to post login: Failed to fetch')
    expect(error.status).toBe(0)

    fetchMock.mockRejectedValueOnce(new TypeError('NetworkError when attempting to fetch resource.'))
    const second = await caught(api.get('/circles/abc-123?page=2'))
    expect(second.message).toBe('Failed to get abc-123: NetworkError when attempting to fetch resource.')
  })

  it('passes an aborted request through untouched', async () => {
    const abort = new DOMException('The operation was aborted.', 'AbortError')
    fetchMock.mockRejectedValueOnce(abort)
    await expect(api.get('/circles')).rejects.toBe(abort)
  })
})

describe('session handling', () => {
  it(`logs out ${LIMITS.logoutDelayMs} ms after a 401`, async () => {
    startSession(validToken(), testUser)
    fetchMock.mockResolvedValueOnce(answer(401, { message: 'Unauthorized', code: 'UNAUTHORIZED' }))

    const error = await caught(api.get('/circles'))
    expect(error.status).toBe(401)
    expect(getSession().token).not.toBeNull()
    await vi.advanceTimersByTimeAsync(LIMITS.logoutDelayMs)
    expect(getSession().token).toBeNull()
    expect(localStorage.getItem('token')).toBeNull()
  })

  it('keeps a session started after the request was sent when its 401 arrives late', async () => {
    const old = validToken({ jti: 'old' })
    startSession(old, testUser)
    let answerLate: (response: Response) => void = () => undefined
    fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (answerLate = resolve)))
    const late = caught(api.get('/circles'))
    expect(sentRequest().headers.Authorization).toBe(`Bearer ${old}`)

    // Logged out and in again while the request was on its way.
    const fresh = validToken({ jti: 'fresh' })
    startSession(fresh, testUser)
    answerLate(answer(401, { message: 'Unauthorized', code: 'UNAUTHORIZED' }))
    expect((await late).status).toBe(401)
    await vi.advanceTimersByTimeAsync(LIMITS.logoutDelayMs * 2)
    expect(getSession().token).toBe(fresh)
    expect(localStorage.getItem('token')).toBe(fresh)
  })

  it('keeps a session another tab started when a 401 for the old token arrives', async () => {
    const old = validToken({ jti: 'old' })
    startSession(old, testUser)
    fetchMock.mockResolvedValueOnce(answer(401, { message: 'Unauthorized' }))
    const late = caught(api.get('/circles'))
    // The other tab wrote its new session to storage; this tab's storage event has not run yet.
    const fresh = validToken({ jti: 'other-tab' })
    localStorage.setItem('token', fresh)
    await late
    await vi.advanceTimersByTimeAsync(LIMITS.logoutDelayMs)
    expect(localStorage.getItem('token')).toBe(fresh)
  })

  it('keeps a session started during the logout delay of an old token', async () => {
    startSession(validToken({ jti: 'old' }), testUser)
    fetchMock.mockResolvedValueOnce(answer(401, { message: 'Unauthorized' }))
    await caught(api.get('/circles'))
    const fresh = validToken({ jti: 'fresh' })
    startSession(fresh, testUser)
    await vi.advanceTimersByTimeAsync(LIMITS.logoutDelayMs)
    expect(getSession().token).toBe(fresh)
  })

  it('keeps the session on a 401 from the login call', async () => {
    startSession(validToken(), testUser)
    fetchMock.mockResolvedValueOnce(answer(401, { message: MESSAGES.invalidCredentials }))
    const error = await caught(api.post('/users/login', { email: 'a@b.co', password: 'wrong' }))
    expect(error.message).toBe(MESSAGES.invalidCredentials)
    await vi.advanceTimersByTimeAsync(LIMITS.logoutDelayMs * 2)
    expect(getSession().token).not.toBeNull()
  })

  it('keeps the session on a 401 when the caller opts out', async () => {
    startSession(validToken(), testUser)
    fetchMock.mockResolvedValueOnce(answer(401, { message: 'Unauthorized' }))
    await caught(api.post('/webauthn/login/verify', {}, undefined, { skipLogoutOn401: true }))
    await vi.advanceTimersByTimeAsync(LIMITS.logoutDelayMs * 2)
    expect(getSession().token).not.toBeNull()
  })

  it('does not send a request with an expired token, and logs out', async () => {
    startSession(expiredToken(), testUser)
    const error = await caught(api.get('/circles'))
    expect(error.message).toBe('Authentication token has expired. Please log in again.')
    expect(error.code).toBe('TOKEN_EXPIRED')
    expect(fetchMock).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(LIMITS.logoutDelayMs)
    expect(getSession()).toEqual({ token: null, user: null })
  })
})

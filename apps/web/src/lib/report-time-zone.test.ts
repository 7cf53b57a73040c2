import { afterEach, describe, expect, it, vi } from 'vitest'
import { getSession, logout, startSession } from '@/lib/session'
import { callCount, json, mockApi, sentBodies } from '@/test/mock-api'
import { testUser, validToken } from '@/test/tokens'
import { reportTimeZone } from './report-time-zone'

afterEach(async () => {
  vi.unstubAllGlobals()
  await logout().catch(() => undefined)
})

describe('reportTimeZone', () => {
  it('tells the server the browser zone when it differs from the stored one, once', async () => {
    const fetchMock = mockApi({
      'PUT /api/users/me/time-zone': (body) => json(200, body),
      'POST /api/users/logout': () => json(200, { message: 'ok' }),
    })
    startSession(validToken(), { ...testUser, timeZone: 'UTC' })
    const stop = reportTimeZone('Europe/Berlin')
    await vi.waitFor(() => expect(getSession().user?.timeZone).toBe('Europe/Berlin'))
    expect(sentBodies(fetchMock, 'PUT /api/users/me/time-zone')).toEqual([{ timeZone: 'Europe/Berlin' }])
    // The session now holds the zone: nothing more is sent.
    startSession(validToken(), { ...testUser, timeZone: 'Europe/Berlin' })
    expect(callCount(fetchMock, 'PUT /api/users/me/time-zone')).toBe(1)
    stop()
  })

  it('sends nothing when the zone is already stored or nobody is signed in', () => {
    const fetchMock = mockApi({})
    const stop = reportTimeZone('Europe/Berlin')
    startSession(validToken(), { ...testUser, timeZone: 'Europe/Berlin' })
    expect(fetchMock).not.toHaveBeenCalled()
    stop()
  })
})

import { MESSAGES } from '@circles/shared'
import { fireEvent, screen } from '@/test/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { callCount } from '@/test/mock-api'
import { testUser, validToken } from '@/test/tokens'
import { json, mockApi, renderJoinPage } from './test/render-join-page'

// Several screens per test: room for a busy machine.
vi.setConfig({ testTimeout: 20_000 })

afterEach(() => vi.unstubAllGlobals())

const TOKEN = 'c0ffee'.repeat(10) + 'abcd'
const CIRCLE_ID = '5b0c8f52-4a55-4f2e-9a0f-2f7c0d1b6e22'

describe('a double click sends one request (issue 23)', () => {
  it('Accept invitation', async () => {
    startSession(validToken(), testUser)
    const fetchMock = mockApi({
      [`GET /api/circles/invitations/${TOKEN}/verify`]: () =>
        json(200, {
          invitation: {
            id: '6c0c8f52-4a55-4f2e-9a0f-2f7c0d1b6e33',
            email: testUser.email,
            type: 'email',
            status: 'PENDING',
            createdAt: new Date().toISOString(),
            expiresAt: new Date(Date.now() + 6 * 24 * 3600 * 1000).toISOString(),
            circleId: CIRCLE_ID,
            circleName: 'Makerspace Tools',
            name: 'Grace Hopper',
          },
        }),
      [`POST /api/circles/invitations/${TOKEN}`]: () =>
        json(200, {
          success: true,
          circle: { id: CIRCLE_ID, name: 'Makerspace Tools' },
          alreadyMember: true,
          message: MESSAGES.alreadyMemberWelcome,
        }),
    })
    await renderJoinPage(`/join?token=${TOKEN}`)
    const button = await screen.findByRole('button', { name: 'Accept invitation' })
    fireEvent.click(button)
    fireEvent.click(button)
    expect((await screen.findAllByText(MESSAGES.alreadyMemberWelcome)).length).toBeGreaterThan(0)
    expect(callCount(fetchMock, `POST /api/circles/invitations/${TOKEN}`)).toBe(1)
  })
})

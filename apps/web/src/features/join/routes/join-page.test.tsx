import { MESSAGES, type TInvitationPreview } from '@circles/shared'
import { act, fireEvent, screen, waitFor } from '@/test/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { testUser, validToken } from '@/test/tokens'
import { json, mockApi, renderJoinPage } from '../test/render-join-page'

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const TOKEN = 'c0ffee'.repeat(10) + 'abcd'
const VERIFY = `GET /api/circles/invitations/${TOKEN}/verify`
const ACCEPT = `POST /api/circles/invitations/${TOKEN}`
const CIRCLE_ID = '5b0c8f52-4a55-4f2e-9a0f-2f7c0d1b6e22'

function preview(overrides: Partial<TInvitationPreview> = {}): TInvitationPreview {
  return {
    id: '6c0c8f52-4a55-4f2e-9a0f-2f7c0d1b6e33',
    email: testUser.email,
    type: 'email',
    status: 'PENDING',
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + 6 * 24 * 3600 * 1000).toISOString(),
    circleId: CIRCLE_ID,
    circleName: 'Makerspace Tools',
    name: 'Grace Hopper',
    ...overrides,
  }
}

const signIn = () => startSession(validToken(), testUser)
const alertText = async () => (await screen.findByRole('alert')).textContent

describe('join page: the token', () => {
  it('without a token says so and links to the dashboard, asking nothing', async () => {
    const fetchMock = mockApi({})
    await renderJoinPage('/join')
    expect(await alertText()).toBe(MESSAGES.invitationTokenNotFound)
    expect(screen.getByRole('link', { name: 'Go to dashboard' }).getAttribute('href')).toBe('/dashboard')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('with a token that cleans to nothing says it is missing', async () => {
    mockApi({})
    await renderJoinPage('/join?token=%20xyz%5C')
    expect(await alertText()).toBe(MESSAGES.invitationTokenMissing)
  })

  it('rejects a short token before any request, naming what it got', async () => {
    const fetchMock = mockApi({})
    signIn()
    await renderJoinPage('/join?token=abc123')
    expect(await alertText()).toBe('Invalid invitation token format. Expected hex string, got: abc123')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('says the same in German', async () => {
    mockApi({})
    await renderJoinPage('/join?invite=abc123', 'de')
    expect(await alertText()).toBe(
      'Ungültiges Format des Einladungscodes. Erwartet wurde eine Hex-Zeichenkette, erhalten: abc123',
    )
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Diese Einladung lässt sich nicht verwenden',
    )
  })

  it('cleans the token of an "invitation" parameter before using it', async () => {
    signIn()
    const fetchMock = mockApi({ [VERIFY]: () => json(200, { invitation: preview() }) })
    const dirty = encodeURIComponent(` ${TOKEN.slice(0, 20)}\\\n${TOKEN.slice(20)}>`)
    await renderJoinPage(`/join?invitation=${dirty}`)
    expect(
      await screen.findByRole('heading', { level: 1, name: "You're invited to Makerspace Tools" }),
    ).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })
})

describe('join page: a visitor', () => {
  it('keeps the token and invited address, then goes to /login with a way back', async () => {
    mockApi({ [VERIFY]: () => json(200, { invitation: preview({ email: 'new@example.com' }) }) })
    const { router } = await renderJoinPage(`/join?token=${TOKEN}`)
    await waitFor(() => expect(router.location.pathname).toBe('/login'))
    expect(router.location.search).toBe(`?returnUrl=${encodeURIComponent(`/join?token=${TOKEN}`)}`)
    expect(localStorage.getItem('pending_invitation_token')).toBe(TOKEN)
    expect(localStorage.getItem('invitation_email')).toBe('new@example.com')
    // Registration follows the stored returnUrl back here.
    expect(localStorage.getItem('returnUrl')).toBe(`/join?token=${TOKEN}`)
  })

  it('goes to /login even when the invitation cannot be read yet', async () => {
    mockApi({ [VERIFY]: () => json(404, { message: MESSAGES.invitationNotFound, code: 'NOT_FOUND' }) })
    const { router } = await renderJoinPage(`/join?token=${TOKEN}`)
    await waitFor(() => expect(router.location.pathname).toBe('/login'))
    expect(localStorage.getItem('pending_invitation_token')).toBe(TOKEN)
    expect(localStorage.getItem('invitation_email')).toBeNull()
  })
})

describe('join page: signed in', () => {
  it('shows the pending invitation, accepts it and lands on the circle after 2 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    signIn()
    localStorage.setItem('pending_invitation_token', TOKEN)
    localStorage.setItem('invitation_email', testUser.email)
    localStorage.setItem('returnUrl', `/join?token=${TOKEN}`)
    const fetchMock = mockApi({
      [VERIFY]: () => json(200, { invitation: preview({ name: null }) }),
      [ACCEPT]: () =>
        json(200, {
          success: true,
          circle: { id: CIRCLE_ID, name: 'Makerspace Tools' },
          alreadyMember: false,
          message: MESSAGES.joinedCircle,
        }),
    })
    const { router } = await renderJoinPage(`/join?token=${TOKEN}`)
    expect(
      await screen.findByRole('heading', { level: 1, name: "You're invited to Makerspace Tools" }),
    ).toBeTruthy()
    // Spec 000 §3: an invitation without the admin's name falls back to 'Administrator'.
    expect(screen.getByText(/^Administrator invited you/)).toBeTruthy()
    expect(screen.getByText(testUser.email)).toBeTruthy()
    expect(screen.queryByText('Different email address')).toBeNull()
    // Arrived: nothing stored leads here again (the dashboard would follow a stored token).
    expect(localStorage.getItem('returnUrl')).toBeNull()
    expect(localStorage.getItem('pending_invitation_token')).toBeNull()
    expect(localStorage.getItem('invitation_email')).toBeNull()

    fireEvent.click(screen.getByRole('button', { name: 'Accept invitation' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome to Makerspace Tools' })).toBeTruthy()
    expect((await screen.findAllByText(MESSAGES.joinedCircle)).length).toBeGreaterThan(0)
    expect(localStorage.getItem('pending_invitation_token')).toBeNull()
    expect(localStorage.getItem('invitation_email')).toBeNull()
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(1)

    await act(() => vi.advanceTimersByTimeAsync(1900))
    expect(router.location.pathname).toBe('/join')
    await act(() => vi.advanceTimersByTimeAsync(200))
    await waitFor(() => expect(router.location.pathname).toBe(`/circles/${CIRCLE_ID}`))
  })

  it('welcomes back someone who already is a member', async () => {
    signIn()
    mockApi({
      [VERIFY]: () => json(200, { invitation: preview() }),
      [ACCEPT]: () =>
        json(200, {
          success: true,
          circle: { id: CIRCLE_ID, name: 'Makerspace Tools' },
          alreadyMember: true,
          message: MESSAGES.alreadyMemberWelcome,
        }),
    })
    await renderJoinPage(`/join?token=${TOKEN}`)
    fireEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }))
    expect((await screen.findAllByText(MESSAGES.alreadyMemberWelcome)).length).toBeGreaterThan(0)
  })

  it('warns when the invitation went to another address, naming both, and still allows accepting', async () => {
    signIn()
    mockApi({ [VERIFY]: () => json(200, { invitation: preview({ email: 'other@example.com' }) }) })
    await renderJoinPage(`/join?token=${TOKEN}`)
    const warning = (await screen.findByText('Different email address')).closest('[role="status"], div')
    expect(warning?.parentElement?.textContent).toContain('other@example.com')
    expect(warning?.parentElement?.textContent).toContain(testUser.email)
    expect(screen.getByRole('button', { name: 'Accept invitation' })).toHaveProperty('disabled', false)
  })

  it('shows an invitation that was already accepted as accepted', async () => {
    signIn()
    mockApi({ [VERIFY]: () => json(200, { invitation: preview({ status: 'ACCEPTED' }) }) })
    await renderJoinPage(`/join?token=${TOKEN}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Invitation already accepted' })).toBeTruthy()
    expect(screen.getByText(MESSAGES.invitationAlreadyAccepted)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).toBeNull()
  })

  it('turns an "already accepted" refusal of the accept call into the accepted state', async () => {
    signIn()
    localStorage.setItem('pending_invitation_token', TOKEN)
    mockApi({
      [VERIFY]: () => json(200, { invitation: preview() }),
      [ACCEPT]: () => json(409, { message: MESSAGES.invitationAlreadyAccepted, code: 'INVITATION_ACCEPTED' }),
    })
    await renderJoinPage(`/join?token=${TOKEN}`)
    fireEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Invitation already accepted' })).toBeTruthy()
    expect(localStorage.getItem('pending_invitation_token')).toBeNull()
  })

  it('counts "already been processed" as accepted too', async () => {
    signIn()
    mockApi({
      [VERIFY]: () => json(200, { invitation: preview() }),
      [ACCEPT]: () => json(400, { message: 'This invitation has already been processed' }),
    })
    await renderJoinPage(`/join?token=${TOKEN}`)
    fireEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Invitation already accepted' })).toBeTruthy()
  })

  it.each([
    [410, { message: MESSAGES.invitationExpired, code: 'INVITATION_EXPIRED' }, MESSAGES.invitationExpired],
    [404, { message: MESSAGES.invitationNotFound, code: 'NOT_FOUND' }, MESSAGES.invitationNotFound],
    [404, { message: MESSAGES.notFound, code: 'NOT_FOUND' }, MESSAGES.invitationNotFound],
    [500, { message: MESSAGES.somethingWentWrong }, MESSAGES.invitationVerifyFailed],
  ])('verify answering %i shows the spec text', async (status, body, text) => {
    signIn()
    localStorage.setItem('pending_invitation_token', TOKEN)
    mockApi({ [VERIFY]: () => json(status, body) })
    await renderJoinPage(`/join?token=${TOKEN}`)
    expect(await alertText()).toBe(text)
    expect(screen.getByRole('heading', { level: 1, name: "This invitation can't be used" })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Go to dashboard' })).toBeTruthy()
    // A dead invitation must not bring the user back here from the dashboard.
    await waitFor(() => expect(localStorage.getItem('pending_invitation_token')).toBeNull())
  })

  it('shows an invitation past its expiry as expired without offering to accept', async () => {
    signIn()
    mockApi({
      [VERIFY]: () =>
        json(200, { invitation: preview({ expiresAt: new Date(Date.now() - 60_000).toISOString() }) }),
    })
    await renderJoinPage(`/join?token=${TOKEN}`)
    expect(await alertText()).toBe(MESSAGES.invitationExpired)
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).toBeNull()
  })

  it.each([
    [410, { message: MESSAGES.invitationExpired, code: 'INVITATION_EXPIRED' }, MESSAGES.invitationExpired],
    [404, { message: MESSAGES.invitationNotFound, code: 'NOT_FOUND' }, MESSAGES.invitationNotFound],
    [403, { message: MESSAGES.memberLimitReached, code: 'PLAN_LIMIT_REACHED' }, MESSAGES.memberLimitReached],
    [502, undefined, MESSAGES.invitationAcceptFailed],
  ])('accept answering %i shows the error state', async (status, body, text) => {
    signIn()
    mockApi({ [VERIFY]: () => json(200, { invitation: preview() }), [ACCEPT]: () => json(status, body) })
    await renderJoinPage(`/join?token=${TOKEN}`)
    fireEvent.click(await screen.findByRole('button', { name: 'Accept invitation' }))
    expect(await alertText()).toBe(text)
  })

  it('shows the invitation in German', async () => {
    signIn()
    mockApi({ [VERIFY]: () => json(200, { invitation: preview() }) })
    await renderJoinPage(`/join?token=${TOKEN}`, 'de')
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Du bist zu Makerspace Tools eingeladen' }),
    ).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Einladung annehmen' })).toBeTruthy()
    expect(
      screen.getByText('Grace Hopper hat dich in diesen Kreis eingeladen.', { exact: false }),
    ).toBeTruthy()
  })
})

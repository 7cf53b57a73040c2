import type { TActivity, THandover } from '@circles/shared'
import { act, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { RECENT_ACTIVITIES_KEY } from '@/lib/realtime/keys'
import { invitationEmail, logout, pendingInvitationToken, startSession } from '@/lib/session'
import { json, mockApi, sentBodies } from '@/test/mock-api'
import { fireEvent } from '@/test/testing-library'
import { renderPages } from '@/test/render-pages'
import { renderRoute } from '@/test/render-route'
import { testUser, validToken } from '@/test/tokens'
import { DashboardPage } from './dashboard-page'

const ITEM = '33333333-3333-4333-8333-333333333333'
const CIRCLE = '11111111-1111-4111-8111-111111111111'

const pending: TActivity = {
  id: '66666666-6666-4666-8666-666666666661',
  type: 'PENDING_HANDOVER',
  timestamp: new Date(Date.now() - 5 * 60_000).toISOString(),
  title: 'Ida wants to hand you Drill',
  data: {
    item: { id: ITEM, name: 'Drill' },
    sender: { name: 'Ida' },
    receiver: { name: 'Anna Keller' },
    circleId: CIRCLE,
    handoverId: '22222222-2222-4222-8222-222222222222',
  },
}
const invitation: TActivity = {
  id: '66666666-6666-4666-8666-666666666662',
  type: 'CIRCLE_INVITATION',
  timestamp: new Date(Date.now() - 3 * 86_400_000).toISOString(),
  title: 'Ida invited you to Linden Street',
  data: { circle: { id: CIRCLE, name: 'Linden Street' } },
}
const circle = (n: number) => ({
  id: `77777777-7777-4777-8777-77777777777${n}`,
  role: 'MEMBER',
  joinedAt: '2026-11-01T10:00:00.000Z',
  circle: {
    id: `11111111-1111-4111-8111-11111111111${n}`,
    name: `Circle ${n}`,
    description: null,
    adminId: testUser.id,
    createdAt: '2026-11-01T10:00:00.000Z',
    memberCount: n + 1,
  },
})

function dashboardApi(overrides: Record<string, () => Response | Promise<Response>> = {}) {
  return mockApi({
    'GET /api/activities/recent': () => json(200, { activities: [pending, invitation] }),
    'GET /api/dashboard/stats': () => json(200, { totalCircles: 4, pendingHandovers: 1, ownedItems: 3 }),
    'GET /api/circles': () => json(200, { circles: [1, 2, 3, 4].map(circle) }),
    'GET /api/handovers': () => json(200, { handovers: [] }),
    'GET /api/loans?role=borrowed&status=active': () => json(200, { loans: [] }),
    'GET /api/loans?role=lent&status=active': () => json(200, { loans: [] }),
    'GET /api/borrow-requests?role=of-me': () => json(200, { borrowRequests: [] }),
    ...overrides,
  })
}

const render = (language: 'en' | 'de' = 'en') =>
  renderPages({ '/dashboard': DashboardPage }, '/dashboard', { language, namespaces: ['dashboard'] })

afterEach(async () => {
  vi.unstubAllGlobals()
  await logout()
  localStorage.clear()
})

describe('DashboardPage', () => {
  it('greets the signed-in user', async () => {
    startSession(validToken(), testUser)
    dashboardApi()
    await renderRoute('/dashboard')
    // The file's first render also imports the lazy dashboard route cold (slow on a loaded machine).
    expect(
      await screen.findByRole('heading', { level: 1, name: /Anna Keller/ }, { timeout: 5000 }),
    ).toBeTruthy()
  })

  it('lists recent activity with links and relative times, the counts, three circles and quick actions', async () => {
    startSession(validToken(), testUser)
    dashboardApi()
    await render()
    const request = await screen.findByRole('link', { name: /Ida wants to hand you Drill/ })
    expect(request.getAttribute('href')).toBe(`/items/${ITEM}`)
    expect(within(request).getByText('5 minutes ago')).toBeTruthy()
    const invited = screen.getByRole('link', { name: /Administrator invited you to Linden Street/ })
    expect(invited.getAttribute('href')).toBe(`/circles/${CIRCLE}`)
    expect(within(invited).getByText('3 days ago')).toBeTruthy()

    expect((await screen.findByTestId('stat-totalCircles')).textContent).toBe('4')
    expect(screen.getByRole('link', { name: /Total circles/ }).getAttribute('href')).toBe('/circles')
    expect(screen.getByRole('link', { name: /Pending handovers/ }).getAttribute('href')).toBe('/items')
    expect(screen.getByRole('link', { name: /Owned items/ }).getAttribute('href')).toBe('/items')

    const circles = screen.getAllByRole('link', { name: /^Circle \d/ })
    expect(circles.map((link) => link.getAttribute('href'))).toEqual(
      [1, 2, 3].map((n) => `/circles/${circle(n).circle.id}`),
    )
    for (const link of circles) expect(within(link).getByText('ADMIN')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'View all circles' }).getAttribute('href')).toBe('/circles')
    expect(screen.getByRole('link', { name: /Create a circle/ }).getAttribute('href')).toBe('/circles/create')
    expect(screen.getByRole('link', { name: /Your items/ }).getAttribute('href')).toBe('/items')
  })

  it("shows '-' in the counts and skeletons while loading", async () => {
    startSession(validToken(), testUser)
    mockApi({ 'GET /api/*': () => new Promise<Response>(() => {}) })
    await render()
    expect(screen.getByTestId('stat-ownedItems').textContent).toBe('-')
    const statuses = screen.getAllByRole('status').map((status) => status.textContent)
    expect(statuses).toContain('Loading recent activity')
    expect(statuses).toContain('Loading what is waiting for you')
  })

  it('puts a live activity in front of the list, at most ten', async () => {
    startSession(validToken(), testUser)
    const many = Array.from({ length: 10 }, (_, i) => ({
      ...invitation,
      id: `66666666-6666-4666-8666-66666666660${i}`,
    }))
    dashboardApi({ 'GET /api/activities/recent': () => json(200, { activities: many }) })
    const { queryClient } = await render()
    await screen.findAllByRole('link', { name: /invited you to Linden Street/ })
    act(() => {
      queryClient.setQueryData<TActivity[]>(RECENT_ACTIVITIES_KEY, (list) => [pending, ...list!].slice(0, 10))
    })
    await waitFor(() => {
      const entries = within(screen.getByRole('list', { name: 'Recent activity' })).getAllByRole('listitem')
      expect(entries).toHaveLength(10)
      expect(entries[0]!.textContent).toContain('Ida wants to hand you Drill')
    })
  })

  it('welcomes someone without circles with the first steps', async () => {
    startSession(validToken(), testUser)
    dashboardApi({
      'GET /api/activities/recent': () => json(200, { activities: [] }),
      'GET /api/circles': () => json(200, { circles: [] }),
      'GET /api/dashboard/stats': () => json(200, { totalCircles: 0, pendingHandovers: 0, ownedItems: 0 }),
    })
    await render()
    expect(await screen.findByRole('heading', { name: 'Start with a circle' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Create your first circle' }).getAttribute('href')).toBe(
      '/circles/create',
    )
    expect(screen.getByText('Nothing has happened yet')).toBeTruthy()
    expect(screen.getByText('You are not in a circle yet.')).toBeTruthy()
  })

  it("says 'Failed to load dashboard data' and loads again on request", async () => {
    startSession(validToken(), testUser)
    let fail = true
    dashboardApi({
      'GET /api/dashboard/stats': () =>
        fail
          ? json(500, { message: 'boom' })
          : json(200, { totalCircles: 1, pendingHandovers: 0, ownedItems: 0 }),
    })
    await render()
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 })
    expect(alert.textContent).toContain('Failed to load dashboard data')
    fail = false
    within(alert).getByRole('button', { name: 'Try again' }).click()
    await waitFor(() => expect(screen.getByTestId('stat-totalCircles').textContent).toBe('1'))
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it("turns an 'Email not verified' answer into its own message with the resend link", async () => {
    startSession(validToken(), testUser)
    dashboardApi({ 'GET /api/dashboard/stats': () => json(403, { message: 'Email not verified' }) })
    await render()
    expect(
      await screen.findByText('Email not verified. Please verify your email before accessing the dashboard.'),
    ).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Resend verification email' }).getAttribute('href')).toBe(
      '/resend-verification',
    )
  })

  it('offers the resend link to a user whose email is not verified, in German too', async () => {
    startSession(validToken(), { ...testUser, emailVerified: false })
    dashboardApi()
    await render('de')
    expect(await screen.findByText('Bitte bestätige deine E-Mail-Adresse')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Bestätigungs-E-Mail erneut senden' }).getAttribute('href')).toBe(
      '/resend-verification',
    )
    expect(await screen.findByText('vor 5 Minuten')).toBeTruthy()
  })

  it('sends a stored pending invitation to /join first and forgets it (spec 000 §2)', async () => {
    startSession(validToken(), testUser)
    const token = 'ab'.repeat(32)
    // The join page starts checking the invitation; that answer does not matter here.
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    )
    pendingInvitationToken.set(token)
    invitationEmail.set('anna@example.com')
    const { router } = await renderRoute('/dashboard')
    await waitFor(() => expect(router.location.pathname).toBe('/join'))
    expect(router.location.search).toBe(`?token=${token}`)
    expect(pendingInvitationToken.get()).toBeNull()
    expect(invitationEmail.get()).toBeNull()
  })
})

const request = (overrides: Partial<THandover> = {}): THandover => ({
  id: '22222222-2222-4222-8222-222222222222',
  itemId: ITEM,
  circleId: CIRCLE,
  senderId: '44444444-4444-4444-8444-444444444444',
  receiverId: testUser.id,
  status: 'PENDING',
  requesterComment: 'Batteries are charged',
  secretMessage: 'The case code is 4711',
  hasSecretMessage: true,
  receiverComment: null,
  completeOwnership: false,
  kind: 'TRANSFER',
  dueAt: null,
  loanId: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  answeredAt: null,
  sender: { name: 'Ida' },
  receiver: { name: testUser.name },
  item: { name: 'Drill', thumbnailUrl: null },
  block: null,
  condition: { sender: { note: null, photos: [] }, receiver: { note: null, photos: [] }, asDescribed: false },
  ...overrides,
})

describe("DashboardPage: 'Waiting for you' (issue 23)", () => {
  it('lists the requests waiting for my answer with the secret message; accept answers inline', async () => {
    startSession(validToken(), testUser)
    const sent = request({
      id: '22222222-2222-4222-8222-222222222223',
      senderId: testUser.id,
      receiverId: '55555555-5555-4555-8555-555555555555',
    })
    const answered = request({ id: '22222222-2222-4222-8222-222222222224', status: 'REJECTED' })
    let handovers = [request(), sent, answered]
    const fetchMock = dashboardApi({
      'GET /api/handovers': () => json(200, { handovers }),
      [`PUT /api/handovers/${request().id}/status`]: () => {
        handovers = [{ ...request(), status: 'CONFIRMED' }, sent, answered]
        return json(200, {
          handover: { ...request(), status: 'CONFIRMED' },
          message: 'Handover confirmed successfully',
        })
      },
    })
    await render()
    const inbox = await screen.findByRole('list', { name: 'Waiting for you' })
    const entries = within(inbox).getAllByRole('listitem')
    expect(entries).toHaveLength(1)
    const entry = entries[0]!
    // The answer form loads when a request waits (issue 28: it carries the condition photos).
    await within(entry).findByRole('button', { name: 'Accept' })
    expect(entry.textContent).toContain('Ida wants to hand you')
    expect(within(entry).getByRole('link', { name: 'Drill' }).getAttribute('href')).toBe(`/items/${ITEM}`)
    expect(entry.textContent).toContain('The case code is 4711')
    expect(entry.textContent).toContain('Batteries are charged')
    expect(entry.textContent).toContain('Partial ownership')
    fireEvent.change(within(entry).getByLabelText(/Your reply/), { target: { value: 'Thanks!' } })
    fireEvent.click(within(entry).getByRole('button', { name: 'Accept' }))
    expect(await screen.findByText('Handover confirmed successfully')).toBeTruthy()
    expect(sentBodies(fetchMock, `PUT /api/handovers/${request().id}/status`)).toEqual([
      { status: 'CONFIRMED', receiverComment: 'Thanks!' },
    ])
    expect(await screen.findByText('Nothing is waiting for your answer.')).toBeTruthy()
  })

  it('says the answer went through even when the live update removed the entry first', async () => {
    startSession(validToken(), testUser)
    let handovers = [request()]
    let answer!: () => void
    const answered = new Promise<void>((resolve) => (answer = resolve))
    dashboardApi({
      'GET /api/handovers': () => json(200, { handovers }),
      [`PUT /api/handovers/${request().id}/status`]: async () => {
        await answered
        return json(200, {
          handover: { ...request(), status: 'CONFIRMED' },
          message: 'Handover confirmed successfully',
        })
      },
    })
    const { queryClient } = await render()
    const inbox = await screen.findByRole('list', { name: 'Waiting for you' })
    fireEvent.click(within(inbox).getByRole('button', { name: 'Accept' }))
    // The socket's notice of our own confirmation arrives before the PUT's answer.
    handovers = [{ ...request(), status: 'CONFIRMED' }]
    await act(() => queryClient.invalidateQueries({ queryKey: ['dashboard'] }))
    expect(await screen.findByText('Nothing is waiting for your answer.')).toBeTruthy()
    answer()
    expect(await screen.findByText('Handover confirmed successfully')).toBeTruthy()
  })

  it('shows the empty state, and a refused answer with its reason (German)', async () => {
    startSession(validToken(), testUser)
    let handovers: THandover[] = []
    dashboardApi({
      'GET /api/handovers': () => json(200, { handovers }),
      [`PUT /api/handovers/${request().id}/status`]: () =>
        json(409, { message: 'This handover request has been cancelled.', code: 'CONFLICT' }),
    })
    const { queryClient } = await render('de')
    expect(await screen.findByText('Nichts wartet auf deine Antwort.')).toBeTruthy()
    handovers = [request()]
    await act(() => queryClient.invalidateQueries({ queryKey: ['dashboard'] }))
    const inbox = await screen.findByRole('list', { name: 'Wartet auf dich' })
    fireEvent.click(within(inbox).getByRole('button', { name: 'Ablehnen' }))
    expect(await screen.findByText('Diese Übergabeanfrage wurde zurückgezogen.')).toBeTruthy()
  })

  it('a request answered or cancelled since no longer reads as open in the feed', async () => {
    startSession(validToken(), testUser)
    dashboardApi({
      'GET /api/activities/recent': () =>
        json(200, {
          activities: [
            { ...pending, handoverStatus: 'CANCELLED' },
            { ...pending, id: '66666666-6666-4666-8666-666666666663', handoverStatus: 'REJECTED' },
          ],
        }),
    })
    await render()
    expect(
      await screen.findByRole('link', { name: /Ida wanted to hand you Drill: the request was cancelled/ }),
    ).toBeTruthy()
    expect(screen.getByRole('link', { name: /Ida wanted to hand you Drill: you rejected it/ })).toBeTruthy()
    expect(screen.queryByRole('link', { name: /Ida wants to hand you Drill/ })).toBeNull()
  })
})

describe("DashboardPage: loans in 'Waiting for you' (issue 26)", () => {
  it('a loan request reads as a loan with its return date before accepting', async () => {
    startSession(validToken(), testUser)
    const loan = request({ kind: 'LOAN', dueAt: new Date(2026, 11, 3, 23, 59).toISOString() })
    dashboardApi({ 'GET /api/handovers': () => json(200, { handovers: [loan] }) })
    await renderPages({ '/dashboard': DashboardPage }, '/dashboard', { namespaces: ['dashboard', 'loans'] })
    expect(await screen.findByRole('heading', { name: 'Ida wants to lend you Drill' })).toBeTruthy()
    expect(screen.getByText('Lend until Dec 3, 2026')).toBeTruthy()
  })
})

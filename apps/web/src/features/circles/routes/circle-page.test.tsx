import { MESSAGES, type TCircleDetail, type TCircleItem, type TCircleMember } from '@circles/shared'
import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { trackEvent } from '@/lib/analytics'
import { testUser } from '@/test/tokens'
import { daysAgo, json, mockApi, renderCirclesPage, sentBodies, toasts } from '../test/render-circles-page'

vi.mock('@/lib/analytics', () => ({ trackEvent: vi.fn() }))
// The invitations panel has its own tests; here it only marks where it sits.
vi.mock('../components/invitations/circle-invitations', () => ({
  CircleInvitations: ({ circleId }: { circleId: string }) => <div data-testid="invitations">{circleId}</div>,
}))

beforeEach(() => vi.mocked(trackEvent).mockClear())
afterEach(() => vi.unstubAllGlobals())

const CIRCLE_ID = '4b7f2b8e-3a51-4c1e-9d7a-6f0e2c1d9a10'
const OTHER = { id: '1f6d2c3b-7e8a-4b9c-8d0e-1a2b3c4d5e6f', name: 'Ben Ortiz', email: 'ben@example.com' }
const THIRD = { id: '2a7e3d4c-8f9b-4cad-9e1f-2b3c4d5e6f70', name: 'Cleo Park', email: 'cleo@example.com' }

function member(
  user: { id: string; name: string; email: string },
  role: 'ADMIN' | 'MEMBER',
  joinedAt: string,
) {
  return { id: crypto.randomUUID(), role, userId: user.id, joinedAt, user } satisfies TCircleMember
}

function item(name: string, extra: Partial<TCircleItem> = {}): TCircleItem {
  return {
    id: crypto.randomUUID(),
    name,
    description: `${name} description`,
    imageUrl: null,
    thumbnailUrl: null,
    ownerId: testUser.id,
    hasPendingHandover: false,
    ...extra,
  }
}

/** Anna (testUser) is the admin unless said otherwise. */
function circle(overrides: Partial<TCircleDetail> = {}): TCircleDetail {
  const users = overrides.users ?? [
    member(testUser, 'ADMIN', daysAgo(60)),
    member(OTHER, 'MEMBER', daysAgo(4)),
    member(THIRD, 'MEMBER', '2024-03-12T10:00:00.000Z'),
  ]
  return {
    id: CIRCLE_ID,
    name: 'Maple Street flat',
    description: 'Tools, the ladder and the good pan.',
    adminId: testUser.id,
    createdAt: '2024-02-01T10:00:00.000Z',
    memberCount: users.length,
    items: [],
    ...overrides,
    users,
  }
}

const detailKey = `GET /api/circles/${CIRCLE_ID}`
const membersCard = () => screen.getByRole('region', { name: /^\d+ (members?|Mitglied(er)?)$/ })
const row = (name: string) => within(membersCard()).getByText(name).closest('li') as HTMLElement

describe('circle detail', () => {
  it('shows the circle, its items card and members to the admin, with admin actions for others only', async () => {
    mockApi({ [detailKey]: () => json(200, { circle: circle() }) })
    await renderCirclesPage(`/circles/${CIRCLE_ID}`)

    expect(await screen.findByRole('heading', { level: 1, name: 'Maple Street flat' })).toBeTruthy()
    expect(screen.getByText('Tools, the ladder and the good pan.')).toBeTruthy()
    expect(screen.getByText('Created Feb 1, 2024')).toBeTruthy()
    await waitFor(() => expect(document.title).toBe('Maple Street flat · Circles'))

    const items = screen.getByRole('region', { name: 'Items' })
    expect(within(items).getByText('No items found')).toBeTruthy()
    // Opens the add form at once and comes back to this page (issue 23).
    expect(within(items).getByRole('link', { name: 'Add item' }).getAttribute('href')).toBe(
      `/circle/${CIRCLE_ID}/items?add=1&from=${encodeURIComponent(`/circles/${CIRCLE_ID}`)}`,
    )

    expect(within(membersCard()).getByRole('heading', { name: '3 members' })).toBeTruthy()
    const anna = row('Anna Keller')
    expect(within(anna).getByText('anna@example.com')).toBeTruthy()
    expect(within(anna).getByText('Admin')).toBeTruthy()
    expect(within(anna).getByText('You')).toBeTruthy()
    expect(within(anna).getByText('AK', { ignore: false })).toBeTruthy()
    expect(within(anna).queryByRole('button')).toBeNull()
    const ben = row('Ben Ortiz')
    expect(within(ben).getByText('Joined 4 days ago')).toBeTruthy()
    expect(within(ben).getByRole('button', { name: 'Make Ben Ortiz the admin' }).textContent).toBe(
      'Make admin',
    )
    expect(within(ben).getByRole('button', { name: 'Remove Ben Ortiz' }).textContent).toBe('Remove')
    expect(within(row('Cleo Park')).getByText('Joined Mar 12, 2024')).toBeTruthy()

    expect(screen.getByTestId('invitations').textContent).toBe(CIRCLE_ID)
    expect(screen.getByText('To leave it, first make another member the admin.')).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Leave circle' })).toBeNull()
  })

  it('lists up to six items, links pending ones to their handover, and links to all items', async () => {
    const items = [
      item('Ladder', { hasPendingHandover: true }),
      ...['Drill', 'Pan', 'Tent', 'Kayak', 'Projector', 'Sewing machine'].map((name) => item(name)),
    ]
    mockApi({ [detailKey]: () => json(200, { circle: circle({ items }) }) })
    await renderCirclesPage(`/circles/${CIRCLE_ID}`)

    const card = await screen.findByRole('region', { name: 'Items' })
    const links = within(card)
      .getAllByRole('link')
      .filter((link) => link.getAttribute('href')?.startsWith('/items/'))
    expect(links).toHaveLength(6)
    const ladder = within(card).getByRole('link', { name: /Ladder/ })
    expect(ladder.getAttribute('href')).toBe(`/items/${items[0]!.id}/handover`)
    expect(within(ladder).getByText('Pending')).toBeTruthy()
    expect(within(card).getByRole('link', { name: /Drill/ }).getAttribute('href')).toBe(
      `/items/${items[1]!.id}`,
    )
    expect(within(card).queryByText('Sewing machine')).toBeNull()
    expect(within(card).getByRole('link', { name: 'All items (7)' }).getAttribute('href')).toBe(
      `/circle/${CIRCLE_ID}/items`,
    )
  })

  it('lets the admin edit name and description inline: first error, save, cancel', async () => {
    let current = circle()
    const fetchMock = mockApi({
      [detailKey]: () => json(200, { circle: current }),
      [`PUT /api/circles/${CIRCLE_ID}`]: (body) => {
        const { name, description } = body as { name: string; description?: string }
        current = { ...current, name, description: description ?? null }
        return json(200, {
          circle: { ...current, items: undefined, users: undefined },
          message: MESSAGES.circleUpdated,
        })
      },
    })
    await renderCirclesPage(`/circles/${CIRCLE_ID}`)
    fireEvent.click(await screen.findByRole('button', { name: 'Edit name and description' }))

    const name = (await screen.findByLabelText('Name')) as HTMLInputElement
    expect(name.value).toBe('Maple Street flat')
    await waitFor(() => expect(document.activeElement).toBe(name))
    fireEvent.change(name, { target: { value: 'ab' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }))
    expect(await toasts().findByText(MESSAGES.circleNameMin)).toBeTruthy()
    expect(sentBodies(fetchMock, `PUT /api/circles/${CIRCLE_ID}`)).toEqual([])

    // Cancel drops the change.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.getByRole('heading', { level: 1, name: 'Maple Street flat' })).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: 'Edit name and description' }))
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Maple St. household' } })
    fireEvent.change(screen.getByLabelText(/Description/), { target: { value: '' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }))

    expect(await screen.findByRole('heading', { level: 1, name: 'Maple St. household' })).toBeTruthy()
    expect(await toasts().findByText(MESSAGES.circleUpdated)).toBeTruthy()
    expect(screen.getByText('No description yet.')).toBeTruthy()
    expect(sentBodies(fetchMock, `PUT /api/circles/${CIRCLE_ID}`)).toEqual([{ name: 'Maple St. household' }])
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit name and description' })),
    )
  })

  it("says 'An error occurred' when saving fails and stays in edit mode", async () => {
    mockApi({
      [detailKey]: () => json(200, { circle: circle() }),
      [`PUT /api/circles/${CIRCLE_ID}`]: () => json(500, { message: MESSAGES.somethingWentWrong }),
    })
    await renderCirclesPage(`/circles/${CIRCLE_ID}`)
    fireEvent.click(await screen.findByRole('button', { name: 'Edit name and description' }))
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }))
    expect((await screen.findByRole('alert')).textContent).toContain(MESSAGES.anErrorOccurred)
    expect(screen.getByRole('heading', { level: 1, name: 'Edit circle' })).toBeTruthy()
  })

  it('removes a member after confirming, and the list refreshes', async () => {
    let current = circle()
    const fetchMock = mockApi({
      [detailKey]: () => json(200, { circle: current }),
      [`DELETE /api/circles/${CIRCLE_ID}/users/${OTHER.id}`]: () => {
        current = circle({ users: current.users.filter((m) => m.userId !== OTHER.id) })
        return json(200, { message: MESSAGES.memberRemoved })
      },
    })
    await renderCirclesPage(`/circles/${CIRCLE_ID}`)
    await screen.findByRole('heading', { level: 1 })
    fireEvent.click(within(row('Ben Ortiz')).getByRole('button', { name: 'Remove Ben Ortiz' }))

    const dialog = screen.getByRole('dialog', { name: 'Remove Ben Ortiz from this circle?' })
    expect(dialog.textContent).toContain('Ben Ortiz will lose access to “Maple Street flat”')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove member' }))

    expect(await toasts().findByText(MESSAGES.memberRemoved)).toBeTruthy()
    await waitFor(() => expect(within(membersCard()).queryByText('Ben Ortiz')).toBeNull())
    expect(within(membersCard()).getByRole('heading', { name: '2 members' })).toBeTruthy()
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'DELETE')).toHaveLength(1)
  })

  it('keeps the member when the removal is cancelled', async () => {
    const fetchMock = mockApi({ [detailKey]: () => json(200, { circle: circle() }) })
    await renderCirclesPage(`/circles/${CIRCLE_ID}`)
    await screen.findByRole('heading', { level: 1 })
    fireEvent.click(within(row('Ben Ortiz')).getByRole('button', { name: 'Remove Ben Ortiz' }))
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false)
  })

  it('transfers ownership after confirming; the page then shows the member view', async () => {
    let current = circle()
    const fetchMock = mockApi({
      [detailKey]: () => json(200, { circle: current }),
      [`POST /api/circles/${CIRCLE_ID}/transfer`]: () => {
        current = circle({
          adminId: OTHER.id,
          users: current.users.map((m) => ({ ...m, role: m.userId === OTHER.id ? 'ADMIN' : 'MEMBER' })),
        })
        return json(200, {
          circle: { ...current, items: undefined, users: undefined },
          message: MESSAGES.ownershipTransferred,
        })
      },
    })
    await renderCirclesPage(`/circle/${CIRCLE_ID}`)
    await screen.findByRole('heading', { level: 1 })
    fireEvent.click(within(row('Ben Ortiz')).getByRole('button', { name: 'Make Ben Ortiz the admin' }))
    const dialog = screen.getByRole('dialog', { name: 'Make Ben Ortiz the admin?' })
    expect(dialog.textContent).toContain('You stay in the circle as a member')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Transfer ownership' }))

    expect(await toasts().findByText(MESSAGES.ownershipTransferred)).toBeTruthy()
    expect(sentBodies(fetchMock, `POST /api/circles/${CIRCLE_ID}/transfer`)).toEqual([{ userId: OTHER.id }])
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Edit name and description' })).toBeNull(),
    )
    expect(screen.queryByTestId('invitations')).toBeNull()
    expect(within(row('Ben Ortiz')).getByText('Admin')).toBeTruthy()
    expect(within(membersCard()).queryByRole('button', { name: /^Remove / })).toBeNull()
    expect(screen.getByRole('button', { name: 'Leave circle' })).toBeTruthy()
  })

  it('lets a member leave after confirming: event, toast, back to the list', async () => {
    const asMember = circle({
      adminId: OTHER.id,
      users: [member(OTHER, 'ADMIN', daysAgo(90)), member(testUser, 'MEMBER', daysAgo(1))],
    })
    const fetchMock = mockApi({
      [detailKey]: () => json(200, { circle: asMember }),
      [`POST /api/circles/${CIRCLE_ID}/leave`]: () => json(200, { message: MESSAGES.leftCircle }),
      'GET /api/circles': () => json(200, { circles: [] }),
    })
    const { router } = await renderCirclesPage(`/circles/${CIRCLE_ID}`)
    await screen.findByRole('heading', { level: 1 })
    expect(screen.queryByRole('button', { name: 'Edit name and description' })).toBeNull()
    expect(screen.queryByTestId('invitations')).toBeNull()
    expect(within(membersCard()).queryByRole('button')).toBeNull()
    expect(within(row('Anna Keller')).getByText('Joined yesterday')).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: 'Leave circle' }))
    const dialog = screen.getByRole('dialog', { name: 'Leave “Maple Street flat”?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Leave circle' }))

    await waitFor(() => expect(router.location.pathname).toBe('/circles'))
    expect(await toasts().findByText(MESSAGES.leftCircle)).toBeTruthy()
    expect(trackEvent).toHaveBeenCalledWith('circle_left')
    expect(sentBodies(fetchMock, `POST /api/circles/${CIRCLE_ID}/leave`)).toHaveLength(1)
  })

  it('shows the 404 state to a non-member, with a way back to the dashboard', async () => {
    mockApi({ [detailKey]: () => json(404, { message: MESSAGES.notFound, code: 'NOT_FOUND' }) })
    await renderCirclesPage(`/circles/${CIRCLE_ID}`)
    expect(await screen.findByText("The page you're looking for doesn't exist.")).toBeTruthy()
    expect(screen.getByRole('heading', { level: 1, name: 'Circle not found' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Back to dashboard' }).getAttribute('href')).toBe('/dashboard')
  })

  it('tells a removed member they were removed, not that the circle was not found (issue 23)', async () => {
    mockApi({
      [detailKey]: () =>
        json(403, {
          message: MESSAGES.removedFromCircle,
          code: 'NO_LONGER_MEMBER',
          reason: 'REMOVED',
          circle: { id: CIRCLE_ID, name: 'Maple Street flat' },
        }),
    })
    await renderCirclesPage(`/circles/${CIRCLE_ID}`)
    expect(
      await screen.findByRole('heading', { level: 1, name: 'You were removed from Maple Street flat' }),
    ).toBeTruthy()
    expect(screen.getByText(/The circle's admin removed you\./)).toBeTruthy()
    expect(screen.queryByText('Circle not found')).toBeNull()
    expect(screen.queryByText(/Error 404/)).toBeNull()
    expect(screen.getByRole('link', { name: 'Go to my items' }).getAttribute('href')).toBe('/items')
  })

  it('does not even ask for an id that cannot be a circle', async () => {
    const fetchMock = mockApi({})
    await renderCirclesPage('/circle/not-a-circle')
    expect(await screen.findByRole('heading', { level: 1, name: 'Circle not found' })).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('shows a spinner while loading, and an error with retry that works', async () => {
    let fail = true
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    mockApi({
      [detailKey]: async () => {
        await gate
        return fail ? json(500, { message: MESSAGES.somethingWentWrong }) : json(200, { circle: circle() })
      },
    })
    await renderCirclesPage(`/circles/${CIRCLE_ID}`)
    expect(await screen.findByRole('status')).toBeTruthy()
    expect(screen.getByText('Loading the circle…')).toBeTruthy()
    release()

    const alert = await screen.findByRole('alert', {}, { timeout: 8000 })
    expect(within(alert).getByText(MESSAGES.anErrorOccurred)).toBeTruthy()
    fail = false
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Maple Street flat' })).toBeTruthy()
  }, 15_000)

  it('speaks German', async () => {
    mockApi({ [detailKey]: () => json(200, { circle: circle() }) })
    await renderCirclesPage(`/circles/${CIRCLE_ID}`, { language: 'de' })
    expect(await screen.findByRole('heading', { name: '3 Mitglieder' })).toBeTruthy()
    expect(screen.getByText('Keine Gegenstände gefunden')).toBeTruthy()
    expect(screen.getByText('Erstellt am 01.02.2024')).toBeTruthy()
    expect(within(row('Ben Ortiz')).getByText('Beigetreten vor 4 Tagen')).toBeTruthy()
  })

  it("names the member in each Remove and Make admin button's accessible name, in English and German", async () => {
    mockApi({ [detailKey]: () => json(200, { circle: circle() }) })
    const { unmount } = await renderCirclesPage(`/circles/${CIRCLE_ID}`)
    await screen.findByRole('heading', { level: 1 })
    const names = (pattern: RegExp) =>
      within(membersCard())
        .getAllByRole('button', { name: pattern })
        .map((button) => button.getAttribute('aria-label'))
        .sort()
    expect(names(/^Remove /)).toEqual(['Remove Ben Ortiz', 'Remove Cleo Park'])
    expect(names(/the admin$/)).toEqual(['Make Ben Ortiz the admin', 'Make Cleo Park the admin'])
    unmount()

    await renderCirclesPage(`/circles/${CIRCLE_ID}`, { language: 'de' })
    await screen.findByRole('heading', { name: '3 Mitglieder' })
    expect(names(/ entfernen$/)).toEqual(['Ben Ortiz entfernen', 'Cleo Park entfernen'])
    expect(names(/zum Admin machen$/)).toEqual(['Ben Ortiz zum Admin machen', 'Cleo Park zum Admin machen'])
    expect(within(row('Ben Ortiz')).getByRole('button', { name: 'Ben Ortiz entfernen' }).textContent).toBe(
      'Entfernen',
    )
  })
})

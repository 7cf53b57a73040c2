import { MESSAGES, type TCircleDetail, type TCircleMember } from '@circles/shared'
import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { callCount } from '@/test/mock-api'
import { testUser } from '@/test/tokens'
import { API, invitation, renderInvitations } from './components/invitations/test-support'
import { daysAgo, json, mockApi, renderCirclesPage, toasts } from './test/render-circles-page'

vi.mock('@/lib/analytics', () => ({ trackEvent: vi.fn() }))
// Several screens per test: room for a busy machine.
vi.setConfig({ testTimeout: 20_000 })

afterEach(() => vi.unstubAllGlobals())

/** Two presses in a row, the second before the page could re-render: a real double click. */
function pressTwice(element: HTMLElement) {
  fireEvent.click(element)
  fireEvent.click(element)
}
function submitTwice(element: HTMLElement) {
  const form = element.closest('form')!
  fireEvent.submit(form)
  fireEvent.submit(form)
}
/** Lets every request that would go out go out. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 20))

const CIRCLE_ID = '4b7f2b8e-3a51-4c1e-9d7a-6f0e2c1d9a10'
const OTHER = { id: '1f6d2c3b-7e8a-4b9c-8d0e-1a2b3c4d5e6f', name: 'Ben Ortiz', email: 'ben@example.com' }
const member = (user: typeof OTHER, role: 'ADMIN' | 'MEMBER') =>
  ({ id: crypto.randomUUID(), role, userId: user.id, joinedAt: daysAgo(3), user }) satisfies TCircleMember
const circle = (asMember = false): TCircleDetail => ({
  id: CIRCLE_ID,
  name: 'Maple Street flat',
  description: null,
  adminId: asMember ? OTHER.id : testUser.id,
  createdAt: daysAgo(30),
  memberCount: 2,
  items: [],
  users: [member(testUser, asMember ? 'MEMBER' : 'ADMIN'), member(OTHER, asMember ? 'ADMIN' : 'MEMBER')],
})
const DETAIL = `GET /api/circles/${CIRCLE_ID}`

describe('a double click sends one request (issue 23)', () => {
  it('Send invitation: one invitation, one email', async () => {
    const fetchMock = mockApi({
      [`GET ${API}/invitations`]: () => json(200, { invitations: [] }),
      [`POST ${API}/users`]: () => json(201, { invitation: invitation(), message: MESSAGES.invitationSent }),
    })
    await renderInvitations()
    fireEvent.click(await screen.findByRole('button', { name: 'Invite by email' }))
    const panel = await screen.findByRole('region', { name: 'Invite by email' })
    fireEvent.change(within(panel).getByLabelText('Email address'), { target: { value: 'ada@example.com' } })
    const button = within(panel).getByRole('button', { name: 'Send invitation' })
    submitTwice(button)
    expect(await screen.findByText(MESSAGES.invitationSent)).toBeTruthy()
    await settle()
    expect(callCount(fetchMock, `POST ${API}/users`)).toBe(1)
  })

  it('Generate QR code: one invitation', async () => {
    const fetchMock = mockApi({
      [`GET ${API}/invitations`]: () => json(200, { invitations: [] }),
      [`POST ${API}/invitations/qr`]: () => json(500),
    })
    await renderInvitations()
    fireEvent.click(await screen.findByRole('button', { name: 'Share QR code' }))
    const panel = await screen.findByRole('region', { name: 'Share a QR code' })
    fireEvent.change(within(panel).getByLabelText(/email/i), { target: { value: 'ada@example.com' } })
    submitTwice(within(panel).getByRole('button', { name: 'Generate QR code' }))
    await settle()
    expect(callCount(fetchMock, `POST ${API}/invitations/qr`)).toBe(1)
  })

  it('Resend invitation and Cancel invitation: one request each', async () => {
    const id = invitation().id
    const fetchMock = mockApi({
      [`GET ${API}/invitations`]: () => json(200, { invitations: [invitation()] }),
      [`POST ${API}/invitations/${id}/resend`]: () => json(200, { message: MESSAGES.invitationResent }),
      [`DELETE ${API}/invitations/${id}`]: () => json(200, { message: MESSAGES.invitationCancelled }),
    })
    await renderInvitations()
    pressTwice(await screen.findByRole('button', { name: 'Resend invitation to ada@example.com' }))
    await settle()
    expect(callCount(fetchMock, `POST ${API}/invitations/${id}/resend`)).toBe(1)

    fireEvent.click(screen.getByRole('button', { name: 'Cancel invitation to ada@example.com' }))
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this invitation?' })
    pressTwice(within(dialog).getByRole('button', { name: 'Cancel invitation' }))
    expect(await screen.findByText(MESSAGES.invitationCancelled)).toBeTruthy()
    await settle()
    expect(callCount(fetchMock, `DELETE ${API}/invitations/${id}`)).toBe(1)
  })

  it('Create circle: one circle', async () => {
    const fetchMock = mockApi({
      'POST /api/circles': () =>
        json(201, {
          circle: { ...circle(), items: undefined, users: undefined },
          message: MESSAGES.circleCreated,
        }),
      [DETAIL]: () => json(200, { circle: circle() }),
    })
    await renderCirclesPage('/circles/create')
    await screen.findByRole('heading', { level: 1 })
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Maple Street flat' } })
    submitTwice(screen.getByRole('button', { name: 'Create circle' }))
    expect(await toasts().findByText(MESSAGES.circleCreated)).toBeTruthy()
    await settle()
    expect(callCount(fetchMock, 'POST /api/circles')).toBe(1)
  })

  it('Save changes of a circle: one update', async () => {
    const fetchMock = mockApi({
      [DETAIL]: () => json(200, { circle: circle() }),
      [`PUT /api/circles/${CIRCLE_ID}`]: () =>
        json(200, {
          circle: { ...circle(), items: undefined, users: undefined },
          message: MESSAGES.circleUpdated,
        }),
    })
    await renderCirclesPage(`/circles/${CIRCLE_ID}`)
    fireEvent.click(await screen.findByRole('button', { name: 'Edit name and description' }))
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Maple Street house' } })
    submitTwice(screen.getByRole('button', { name: 'Save changes' }))
    expect(await toasts().findByText(MESSAGES.circleUpdated)).toBeTruthy()
    await settle()
    expect(callCount(fetchMock, `PUT /api/circles/${CIRCLE_ID}`)).toBe(1)
  })

  it('Remove member and Transfer ownership: one request each', async () => {
    const fetchMock = mockApi({
      [DETAIL]: () => json(200, { circle: circle() }),
      [`DELETE /api/circles/${CIRCLE_ID}/users/${OTHER.id}`]: () =>
        json(200, { message: MESSAGES.memberRemoved }),
      [`POST /api/circles/${CIRCLE_ID}/transfer`]: () => json(500),
    })
    await renderCirclesPage(`/circles/${CIRCLE_ID}`)
    await screen.findByRole('heading', { level: 1 })
    const row = () => screen.getByText('Ben Ortiz').closest('li') as HTMLElement
    fireEvent.click(within(row()).getByRole('button', { name: /^Remove/ }))
    pressTwice(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove member' }))
    expect(await toasts().findByText(MESSAGES.memberRemoved)).toBeTruthy()
    await settle()
    expect(callCount(fetchMock, `DELETE /api/circles/${CIRCLE_ID}/users/${OTHER.id}`)).toBe(1)

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    fireEvent.click(within(row()).getByRole('button', { name: /^Make .* the admin/ }))
    pressTwice(within(screen.getByRole('dialog')).getByRole('button', { name: 'Transfer ownership' }))
    await settle()
    expect(callCount(fetchMock, `POST /api/circles/${CIRCLE_ID}/transfer`)).toBe(1)
  })

  it('Leave circle: one request', async () => {
    const fetchMock = mockApi({
      [DETAIL]: () => json(200, { circle: circle(true) }),
      [`POST /api/circles/${CIRCLE_ID}/leave`]: () => json(200, { message: MESSAGES.leftCircle }),
      'GET /api/circles': () => json(200, { circles: [] }),
    })
    await renderCirclesPage(`/circles/${CIRCLE_ID}`)
    await screen.findByRole('heading', { level: 1 })
    fireEvent.click(screen.getByRole('button', { name: 'Leave circle' }))
    const dialog = screen.getByRole('dialog', { name: 'Leave “Maple Street flat”?' })
    pressTwice(within(dialog).getByRole('button', { name: 'Leave circle' }))
    expect(await toasts().findByText(MESSAGES.leftCircle)).toBeTruthy()
    await settle()
    expect(callCount(fetchMock, `POST /api/circles/${CIRCLE_ID}/leave`)).toBe(1)
  })
})

import { MESSAGES } from '@circles/shared'
import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { API, callCount, invitation, json, mockApi, renderInvitations } from './test-support'

const trackEvent = vi.hoisted(() => vi.fn())
vi.mock('@/lib/analytics', () => ({ trackEvent }))

beforeEach(() => trackEvent.mockClear())
afterEach(() => vi.unstubAllGlobals())

const LIST = `GET ${API}/invitations`
const QR = invitation({ id: '7d0c8f52-4a55-4f2e-9a0f-2f7c0d1b6e44', email: 'bob@example.com', type: 'qr' })

async function openEmailPanel() {
  await renderInvitations()
  fireEvent.click(await screen.findByRole('button', { name: 'Invite by email' }))
  return screen.findByRole('region', { name: 'Invite by email' })
}

describe('invite by email', () => {
  it('hides both buttons while the panel is open', async () => {
    mockApi({ [LIST]: () => json(200, { invitations: [] }) })
    const panel = await openEmailPanel()
    expect(screen.queryByRole('button', { name: 'Invite by email' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Share QR code' })).toBeNull()
    await waitFor(() => expect(within(panel).getByLabelText('Email address')).toBe(document.activeElement))
    fireEvent.keyDown(within(panel).getByLabelText('Email address'), { key: 'Escape' })
    const invite = await screen.findByRole('button', { name: 'Invite by email' })
    await waitFor(() => expect(document.activeElement).toBe(invite))
  })

  it.each([
    ['', MESSAGES.emailRequired],
    ['not-an-email', MESSAGES.invalidEmail],
  ])('validates %j before sending', async (value, text) => {
    const fetchMock = mockApi({ [LIST]: () => json(200, { invitations: [] }) })
    const panel = await openEmailPanel()
    fireEvent.change(within(panel).getByLabelText('Email address'), { target: { value } })
    fireEvent.click(within(panel).getByRole('button', { name: 'Send invitation' }))
    expect(await within(panel).findByText(text)).toBeTruthy()
    // The first error is a toast too (spec 001 §5, like the auth forms).
    await waitFor(() => expect(screen.getAllByText(text)).toHaveLength(2))
    expect(callCount(fetchMock, `POST ${API}/users`)).toBe(0)
  })

  it('sends, confirms, closes the panel and refreshes the pending list', async () => {
    let invitations: unknown[] = []
    const fetchMock = mockApi({
      [LIST]: () => json(200, { invitations }),
      [`POST ${API}/users`]: (body) => {
        expect(body).toEqual({ email: 'ada@example.com' })
        invitations = [invitation()]
        return json(201, { invitation: invitation(), message: MESSAGES.invitationSent })
      },
    })
    const panel = await openEmailPanel()
    expect(await screen.findByText('No pending invitations.')).toBeTruthy()
    fireEvent.change(within(panel).getByLabelText('Email address'), {
      target: { value: ' Ada@Example.com ' },
    })
    fireEvent.click(within(panel).getByRole('button', { name: 'Send invitation' }))
    expect(await screen.findByText(MESSAGES.invitationSent)).toBeTruthy()
    expect(await screen.findByText('ada@example.com')).toBeTruthy()
    expect(screen.queryByRole('region', { name: 'Invite by email' })).toBeNull()
    expect(trackEvent).toHaveBeenCalledWith('circle_invite_sent', { type: 'email' })
    expect(callCount(fetchMock, `POST ${API}/users`)).toBe(1)
  })

  it.each([
    [409, { message: MESSAGES.alreadyMember, code: 'ALREADY_MEMBER' }, MESSAGES.alreadyMember],
    [403, { message: MESSAGES.memberLimitReached, code: 'PLAN_LIMIT_REACHED' }, MESSAGES.memberLimitReached],
    [500, undefined, MESSAGES.anErrorOccurred],
  ])('shows the server message, else the generic text (%i)', async (status, body, text) => {
    mockApi({ [LIST]: () => json(200, { invitations: [] }), [`POST ${API}/users`]: () => json(status, body) })
    const panel = await openEmailPanel()
    fireEvent.change(within(panel).getByLabelText('Email address'), { target: { value: 'ada@example.com' } })
    fireEvent.click(within(panel).getByRole('button', { name: 'Send invitation' }))
    expect((await within(panel).findByRole('alert')).textContent).toBe(text)
    expect(trackEvent).not.toHaveBeenCalled()
  })
})

describe('pending invitations', () => {
  it('lists each with email, Pending badge, type and expiry', async () => {
    mockApi({ [LIST]: () => json(200, { invitations: [invitation(), QR] }) })
    await renderInvitations()
    const list = await screen.findByRole('region', { name: 'Pending invitations' })
    const rows = await within(list).findAllByRole('listitem')
    expect(rows).toHaveLength(2)
    expect(rows[0]!.textContent).toContain('ada@example.com')
    expect(rows[0]!.textContent).toContain('Pending')
    expect(rows[0]!.textContent).toContain('Email')
    expect(rows[0]!.textContent).toContain('Expires in 6 days')
    expect(rows[1]!.textContent).toContain('QR code')
    expect(
      within(rows[1]!).getByRole('button', { name: 'Resend invitation to bob@example.com' }),
    ).toBeTruthy()
  })

  it('resends one invitation', async () => {
    const fetchMock = mockApi({
      [LIST]: () => json(200, { invitations: [invitation()] }),
      [`POST ${API}/invitations/${invitation().id}/resend`]: () =>
        json(200, { invitation: invitation(), message: MESSAGES.invitationResent }),
    })
    await renderInvitations()
    fireEvent.click(await screen.findByRole('button', { name: 'Resend invitation to ada@example.com' }))
    expect(await screen.findByText(MESSAGES.invitationResent)).toBeTruthy()
    expect(callCount(fetchMock, `POST ${API}/invitations/${invitation().id}/resend`)).toBe(1)
  })

  it('says "An error occurred" when a resend fails without a message', async () => {
    mockApi({
      [LIST]: () => json(200, { invitations: [invitation()] }),
      [`POST ${API}/invitations/${invitation().id}/resend`]: () => json(502),
    })
    await renderInvitations()
    fireEvent.click(await screen.findByRole('button', { name: 'Resend invitation to ada@example.com' }))
    expect(await screen.findByText(MESSAGES.anErrorOccurred)).toBeTruthy()
  })

  it('cancels after a confirmation naming the address; keeping it sends nothing', async () => {
    let invitations = [invitation()]
    const fetchMock = mockApi({
      [LIST]: () => json(200, { invitations }),
      [`DELETE ${API}/invitations/${invitation().id}`]: () => {
        invitations = []
        return json(200, { message: MESSAGES.invitationCancelled })
      },
    })
    await renderInvitations()
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel invitation to ada@example.com' }))
    let dialog = await screen.findByRole('dialog', { name: 'Cancel this invitation?' })
    expect(dialog.textContent).toContain('ada@example.com')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(callCount(fetchMock, `DELETE ${API}/invitations/${invitation().id}`)).toBe(0)

    fireEvent.click(screen.getByRole('button', { name: 'Cancel invitation to ada@example.com' }))
    dialog = await screen.findByRole('dialog', { name: 'Cancel this invitation?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel invitation' }))
    expect(await screen.findByText(MESSAGES.invitationCancelled)).toBeTruthy()
    expect(await screen.findByText('No pending invitations.')).toBeTruthy()
    expect(callCount(fetchMock, `DELETE ${API}/invitations/${invitation().id}`)).toBe(1)
  })

  it('shows "An error occurred" with a retry when the list fails', async () => {
    let fail = true
    mockApi({
      [LIST]: () => (fail ? json(403, { message: MESSAGES.forbidden }) : json(200, { invitations: [] })),
    })
    await renderInvitations()
    expect((await screen.findByRole('alert')).textContent).toContain(MESSAGES.anErrorOccurred)
    fail = false
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('No pending invitations.')).toBeTruthy()
  })

  it('reads in German', async () => {
    mockApi({ [LIST]: () => json(200, { invitations: [invitation()] }) })
    await renderInvitations('de')
    const list = await screen.findByRole('region', { name: 'Offene Einladungen' })
    const row = await within(list).findByRole('listitem')
    expect(row.textContent).toContain('Ausstehend')
    expect(row.textContent).toContain('Läuft in 6 Tagen ab')
    expect(screen.getByRole('button', { name: 'Per E-Mail einladen' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'QR-Code teilen' })).toBeTruthy()
  })
})

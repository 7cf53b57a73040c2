import { MESSAGES, type TDeletionPreview } from '@circles/shared'
import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { signOutAndLeave } from '@/lib/sign-out'
import { startSession } from '@/lib/session'
import { callCount, json, mockApi, sentBodies } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { DeleteAccount } from './delete-account'

vi.mock('@/lib/sign-out', () => ({ signOutAndLeave: vi.fn(() => Promise.resolve()) }))
const { startAuthentication } = vi.hoisted(() => ({ startAuthentication: vi.fn() }))
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication }))

beforeEach(() => startSession(validToken(), testUser))
afterEach(() => {
  vi.unstubAllGlobals()
  vi.mocked(signOutAndLeave).mockClear()
})
vi.setConfig({ testTimeout: 20_000 })

const ids = {
  linden: '11111111-1111-4111-8111-111111111111',
  garden: '22222222-2222-4222-8222-222222222222',
  attic: '33333333-3333-4333-8333-333333333333',
  otto: '44444444-4444-4444-8444-444444444444',
  ida: '55555555-5555-4555-8555-555555555555',
  tent: '66666666-6666-4666-8666-666666666666',
  drill: '77777777-7777-4777-8777-777777777777',
}
const preview: TDeletionPreview = {
  circles: [
    { id: ids.linden, name: 'Linden Street', outcome: 'LEAVES', successor: null },
    { id: ids.garden, name: 'Garden', outcome: 'ADMIN_PASSES', successor: { id: ids.otto, name: 'Otto' } },
    { id: ids.attic, name: 'Attic', outcome: 'CLOSES', successor: null },
  ],
  itemsDeleted: [{ id: ids.tent, name: 'Tent', circleId: ids.linden }],
  itemsToAdmin: [{ id: ids.drill, name: 'Drill', circleId: ids.linden, admin: { id: ids.ida, name: '' } }],
  pendingHandovers: 2,
  hasPasskeys: false,
}

async function render(deleteAnswer: () => Response, shown: TDeletionPreview = preview) {
  const fetchMock = mockApi({
    'GET /api/users/me/deletion': () => json(200, { preview: shown }),
    'POST /api/webauthn/reauth/options': () => json(200, { options: { challenge: 'Y2hhbGxlbmdl' } }),
    'POST /api/users/me/delete': deleteAnswer,
  })
  await renderPages({ '/': () => <DeleteAccount user={testUser} /> }, '/', { namespaces: ['profile'] })
  return fetchMock
}

describe('Delete my account', () => {
  it('says what will happen, from the preview; a deleted admin reads "Deleted member"', async () => {
    await render(() => json(200, { message: MESSAGES.accountDeleted }))
    const list = await screen.findByRole('list', { name: 'What happens when you delete your account' })
    const text = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent)
    expect(text).toEqual(
      expect.arrayContaining([
        'You leave Linden Street.',
        expect.stringContaining('Garden: your admin rights pass to Otto'),
        expect.stringContaining('Attic closes'),
        'Deleted, with any picture: Tent (you hold it completely).',
        'Drill goes back to Deleted member, the admin of Linden Street.',
        '2 pending handovers are withdrawn.',
      ]),
    )
    // No passkey: no passkey button.
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account…' }))
    expect(screen.queryByRole('button', { name: 'Use a passkey' })).toBeNull()
  })

  it('asks for the password, shows the server’s refusal, and cancels back', async () => {
    const fetchMock = await render(() =>
      json(403, {
        message: MESSAGES.deleteAccountWrongPassword,
        code: 'FORBIDDEN',
        key: 'deleteAccountWrongPassword',
      }),
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Delete my account…' }))
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account for good' }))
    expect(await screen.findByText(MESSAGES.deleteAccountConfirmRequired)).toBeTruthy()
    expect(callCount(fetchMock, 'POST /api/users/me/delete')).toBe(0)
    fireEvent.change(screen.getByLabelText('Your password'), { target: { value: 'wrong one' } })
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account for good' }))
    expect(await screen.findByText(MESSAGES.deleteAccountWrongPassword)).toBeTruthy()
    expect(sentBodies(fetchMock, 'POST /api/users/me/delete')).toEqual([{ password: 'wrong one' }])
    expect(signOutAndLeave).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByLabelText('Your password')).toBeNull()
    expect(screen.getByRole('button', { name: 'Delete my account…' })).toBeTruthy()
  })

  it('a double press sends one request, then signs out to the public notice', async () => {
    const fetchMock = await render(() => json(200, { message: MESSAGES.accountDeleted }))
    fireEvent.click(await screen.findByRole('button', { name: 'Delete my account…' }))
    fireEvent.change(screen.getByLabelText('Your password'), { target: { value: 'correct horse' } })
    const form = screen.getByRole('button', { name: 'Delete my account for good' }).closest('form')!
    fireEvent.submit(form)
    fireEvent.submit(form)
    await waitFor(() => expect(signOutAndLeave).toHaveBeenCalledWith('/account-deleted'))
    expect(callCount(fetchMock, 'POST /api/users/me/delete')).toBe(1)
  })

  it('with a passkey: sends its fresh assertion; a cancelled prompt sends nothing and says so', async () => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {})
    Object.defineProperty(navigator, 'credentials', { value: {}, configurable: true })
    const assertion = { id: 'abc', rawId: 'abc', type: 'public-key', response: { clientDataJSON: 'eyJ9' } }
    startAuthentication.mockRejectedValueOnce(new DOMException('cancelled', 'NotAllowedError'))
    startAuthentication.mockResolvedValueOnce(assertion)
    const fetchMock = await render(() => json(200, { message: MESSAGES.accountDeleted }), {
      ...preview,
      hasPasskeys: true,
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Delete my account…' }))
    fireEvent.click(screen.getByRole('button', { name: 'Use a passkey' }))
    expect(
      await screen.findByText('The passkey prompt was cancelled. Your account has not been deleted.'),
    ).toBeTruthy()
    expect(callCount(fetchMock, 'POST /api/users/me/delete')).toBe(0)
    fireEvent.click(screen.getByRole('button', { name: 'Use a passkey' }))
    await waitFor(() => expect(signOutAndLeave).toHaveBeenCalledWith('/account-deleted'))
    expect(sentBodies(fetchMock, 'POST /api/users/me/delete')).toEqual([{ credential: assertion }])
  })

  it('shows an error when the preview cannot be loaded', async () => {
    mockApi({ 'GET /api/users/me/deletion': () => json(403, { message: 'Forbidden', code: 'FORBIDDEN' }) })
    await renderPages({ '/': () => <DeleteAccount user={testUser} /> }, '/', { namespaces: ['profile'] })
    expect(await screen.findByText(/could not be loaded/)).toBeTruthy()
  })
})

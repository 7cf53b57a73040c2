import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { notify } from '@/lib/notify'
import { startSession } from '@/lib/session'
import { callCount, json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { WitnessDevices } from './witness-devices'

// This browser's key record (IndexedDB in the app).
const { stored } = vi.hoisted(() => ({
  stored: new Map<string, { userId: string; deviceId: string }>(),
}))
vi.mock('@/lib/ledger-verification/witness-key-store', () => ({
  deviceKeyStore: {
    get: async (userId: string) => stored.get(userId),
    set: async (key: { userId: string; deviceId: string }) => void stored.set(key.userId, key),
    delete: async (userId: string) => void stored.delete(userId),
  },
}))

const THIS = '11111111-1111-4111-8111-111111111111'
const OTHER = '22222222-2222-4222-8222-222222222222'
const key = (deviceId: string, extra: object = {}) => ({
  deviceId,
  name: `localhost/witness/u/${deviceId}`,
  verifierKey: 'k',
  label: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  lastCosignedAt: null,
  ...extra,
})
const KEYS = [
  key(THIS, { label: 'Chrome on Linux', lastCosignedAt: '2026-11-26T09:00:00.000Z' }),
  key(OTHER, { label: 'Safari on iOS' }),
]

const render = (language: 'en' | 'de' = 'en') =>
  renderPages({ '/profile': () => <WitnessDevices userId={testUser.id} /> }, '/profile', {
    namespaces: ['profile'],
    language,
  })
const rowOf = async (name: string) => (await screen.findByText(name)).closest('li')!

beforeEach(() => {
  startSession(validToken(), testUser)
  stored.set(testUser.id, { userId: testUser.id, deviceId: THIS })
})
afterEach(() => {
  stored.clear()
  notify.dismiss()
})

describe('the devices that witness your circles (docs/decisions/0064)', () => {
  it('lists each device with this one marked, its dates, and says what the limit of ten does', async () => {
    // The server lists newest first; this device comes first anyway.
    mockApi({ 'GET /api/ledger/witness-keys': () => json(200, { witnessKeys: [...KEYS].reverse() }) })
    await render()
    const mine = await rowOf('Chrome on Linux')
    expect(screen.getAllByRole('listitem')[0]).toBe(mine)
    expect(within(mine).getByText('This device')).toBeTruthy()
    expect(mine.textContent).toContain('Registered on Nov 20, 2026')
    expect(mine.textContent).toContain('last cosigned Nov 26, 2026')
    const other = await rowOf('Safari on iOS')
    expect(within(other).queryByText('This device')).toBeNull()
    expect(other.textContent).toContain('has not cosigned yet')
    expect(screen.getByText('2 of 10 devices')).toBeTruthy()
    expect(
      screen.getByText(/When another device checks a ledger after that, it replaces the device/),
    ).toBeTruthy()
  })

  it('shows the empty state, and the error state with a retry that loads the list', async () => {
    // A refusal (4xx) is not retried: the error state shows at once.
    const fetchMock = mockApi({ 'GET /api/ledger/witness-keys': () => json(429, { message: 'Slow down' }) })
    const page = await render()
    expect((await screen.findByRole('alert')).textContent).toContain('Your devices could not be loaded.')
    mockApi({ 'GET /api/ledger/witness-keys': () => json(200, { witnessKeys: [] }) })
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText(/No device has a witness key yet/)).toBeTruthy()
    expect(callCount(fetchMock, 'GET /api/ledger/witness-keys')).toBeGreaterThan(0)
    page.unmount()
  })

  it('removes another device once, however often Remove is pressed, and keeps this device’s key', async () => {
    let release: () => void = () => undefined
    let listed = KEYS
    const fetchMock = mockApi({
      'GET /api/ledger/witness-keys': () => json(200, { witnessKeys: listed }),
      [`DELETE /api/ledger/witness-keys/${OTHER}`]: () =>
        new Promise((resolve) => {
          listed = [KEYS[0]!]
          release = () => resolve(json(200, { witnessKeys: listed }))
        }),
    })
    await render()
    fireEvent.click(within(await rowOf('Safari on iOS')).getByRole('button', { name: 'Remove' }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove Safari on iOS?' })
    expect(dialog.textContent).toContain('If the device is still in use, it makes a new key')
    const confirm = within(dialog).getByRole('button', { name: 'Remove' })
    fireEvent.click(confirm)
    fireEvent.click(confirm)
    await waitFor(() => expect(callCount(fetchMock, `DELETE /api/ledger/witness-keys/${OTHER}`)).toBe(1))
    fireEvent.click(confirm)
    release()
    await waitFor(() => expect(screen.queryByText('Safari on iOS')).toBeNull())
    expect(callCount(fetchMock, `DELETE /api/ledger/witness-keys/${OTHER}`)).toBe(1)
    expect(stored.get(testUser.id)?.deviceId).toBe(THIS)
  })

  it('removing this device’s key forgets it here too, so the next check makes a new one; in German', async () => {
    let listed = KEYS
    mockApi({
      'GET /api/ledger/witness-keys': () => json(200, { witnessKeys: listed }),
      [`DELETE /api/ledger/witness-keys/${THIS}`]: () => json(200, { witnessKeys: (listed = [KEYS[1]!]) }),
    })
    await render('de')
    const mine = await rowOf('Chrome on Linux')
    expect(within(mine).getByText('Dieses Gerät')).toBeTruthy()
    fireEvent.click(within(mine).getByRole('button', { name: 'Entfernen' }))
    const dialog = await screen.findByRole('dialog', { name: 'Chrome on Linux entfernen?' })
    expect(dialog.textContent).toContain('Der Schlüssel dieses Geräts')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Entfernen' }))
    await waitFor(() => expect(stored.has(testUser.id)).toBe(false))
    await waitFor(() => expect(screen.queryByText('Chrome on Linux')).toBeNull())
  })

  it('says why a removal failed', async () => {
    mockApi({
      'GET /api/ledger/witness-keys': () => json(200, { witnessKeys: KEYS }),
      [`DELETE /api/ledger/witness-keys/${OTHER}`]: () =>
        json(404, { message: 'This device has no witness key.' }),
    })
    await render()
    fireEvent.click(within(await rowOf('Safari on iOS')).getByRole('button', { name: 'Remove' }))
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }))
    expect(await screen.findByText('This device has no witness key.')).toBeTruthy()
  })
})

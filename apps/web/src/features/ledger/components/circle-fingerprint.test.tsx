import { screen } from '@/test/testing-library'
import { describe, expect, it, vi } from 'vitest'
import { log } from '@/test/ledger-device'
import { renderPages } from '@/test/render-pages'
import { MESSAGES } from '@circles/shared'
import { circleFingerprint } from '@/lib/ledger-verification/fingerprint'
import type { CircleCheck } from '@/lib/ledger-verification/use-ledger-verification'
import { CircleFingerprint } from './circle-fingerprint'

const CIRCLE = '11111111-1111-4111-8111-111111111111'
const NOTE = log(3).note(3)

// What this device remembers: IndexedDB in the browser.
vi.mock('@/lib/ledger-verification/checkpoint-store', () => ({
  rememberedCheckpoint: async () => ({
    circleId: CIRCLE,
    note: NOTE,
    size: 3,
    rootHash: 'aa',
    verifiedAt: '',
  }),
}))

const check = (cosignError?: string): CircleCheck => ({
  circleId: CIRCLE,
  circleName: 'Linden Street',
  status: 'done',
  result: {
    state: 'verified',
    circleId: CIRCLE,
    size: 3,
    verifiedAt: '2026-11-27T05:00:00.000Z',
    blockIds: [],
    note: NOTE,
    rootHash: 'aa',
    cosignError,
  },
  retry: () => undefined,
})

const render = (value: CircleCheck, language: 'en' | 'de' = 'en') =>
  renderPages({ '/': () => <CircleFingerprint check={value} /> }, '/', { namespaces: ['ledger'], language })

describe('the circle fingerprint on a circle’s ledger page', () => {
  it('shows the code of the checkpoint this device remembers, and asks to compare it in person', async () => {
    await render(check())
    expect((await screen.findByTestId('circle-fingerprint-code')).textContent).toBe(
      await circleFingerprint(NOTE),
    )
    expect(screen.getByRole('heading', { name: 'Circle fingerprint' })).toBeTruthy()
    expect(screen.getByText('From the checkpoint of 3 blocks this device checked and cosigned.')).toBeTruthy()
    expect(screen.getByText(/Compare it in person with another member/)).toBeTruthy()
  })

  it('says why this device could not cosign, in the reader’s language', async () => {
    await render(check(MESSAGES.witnessKeyLimit), 'de')
    expect(
      await screen.findByText('Aus dem Prüfpunkt mit 3 Blöcken, den dieses Gerät geprüft hat.'),
    ).toBeTruthy()
    expect(screen.getByText(/Dieses Gerät konnte ihn nicht gegenzeichnen: .*10/)).toBeTruthy()
  })

  it('holds its place while the check runs, and says so', async () => {
    await render({ ...check(), status: 'pending', result: undefined })
    const box = await screen.findByTestId('circle-fingerprint')
    expect(box.getAttribute('aria-busy')).toBe('true')
    expect(screen.getByText('This device is checking the ledger; the code follows.')).toBeTruthy()
    expect(screen.queryByTestId('circle-fingerprint-code')).toBeNull()
  })

  it('says there is no code yet when the check could not run', async () => {
    await render({ ...check(), status: 'error', error: new Error('offline'), result: undefined }, 'de')
    expect(
      await screen.findByText(
        'Noch kein Code: Dieses Gerät hat das Protokoll dieses Kreises noch nicht geprüft.',
      ),
    ).toBeTruthy()
    expect(screen.getByTestId('circle-fingerprint').getAttribute('aria-busy')).toBe('false')
  })
})

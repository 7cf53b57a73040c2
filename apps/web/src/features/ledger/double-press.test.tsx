import type { TBlock } from '@circles/shared'
import { fireEvent, screen, waitFor } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { callCount, json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { seedStoredSession, validToken } from '@/test/tokens'
import { LedgerPage } from './routes/ledger-page'

const CIRCLE = '11111111-1111-4111-8111-111111111111'
const block = {
  id: '66666666-6666-4666-8666-666666666660',
  hash: 'a'.repeat(64),
  content: {
    v: 1,
    kind: 'HANDOVER',
    circle: { id: CIRCLE, name: 'Linden Street' },
    height: 0,
    prevHash: '0'.repeat(64),
    first: true,
    time: '2026-11-20T10:00:00.000Z',
    handoverId: '22222222-2222-4222-8222-222222222220',
    item: { id: '33333333-3333-4333-8333-333333333333', name: 'Cordless drill' },
    from: { id: '44444444-4444-4444-8444-444444444444', name: 'Ida Owner' },
    to: { id: '55555555-5555-4555-8555-555555555555', name: 'Ben Neighbour' },
    ownership: 'COMPLETE',
    commitments: { requesterComment: null, receiverComment: null, secretMessage: null },
  },
  names: { from: { name: 'Ida Owner', salt: null }, to: { name: 'Ben Neighbour', salt: null } },
  redacted: [],
  item: null,
  comments: { requesterComment: null, receiverComment: null, secretMessage: null },
  evidence: null,
} as TBlock

beforeEach(() => seedStoredSession(validToken()))
afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

describe('a double press sends one request (issue 23)', () => {
  it('Download export', async () => {
    // The download itself goes through an object URL; jsdom has none.
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} }))
    let release = () => {}
    const fetchMock = mockApi({
      [`GET /api/blockchain/circle/${CIRCLE}`]: () => json(200, { blocks: [block] }),
      [`GET /api/ledger/${CIRCLE}/export`]: () =>
        new Promise<Response>((resolve) => {
          release = () => resolve(new Response('{}\n', { status: 200 }))
        }),
    })
    await renderPages({ '/blockchain/circle/:circleId': LedgerPage }, `/blockchain/circle/${CIRCLE}`, {
      namespaces: ['ledger'],
    })
    const exportButton = () => screen.getByRole('button', { name: 'Download export' })
    await waitFor(() => expect(exportButton()).toHaveProperty('disabled', false))
    const button = exportButton()
    fireEvent.click(button)
    fireEvent.click(button)
    await waitFor(() => expect(callCount(fetchMock, `GET /api/ledger/${CIRCLE}/export`)).toBe(1))
    release()
    await waitFor(() => expect(exportButton()).toHaveProperty('disabled', false))
    expect(callCount(fetchMock, `GET /api/ledger/${CIRCLE}/export`)).toBe(1)
  })
})

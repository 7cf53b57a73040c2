import { blockHash, seedSigner, verifierKey } from '@circles/ledger'
import type { TBlock, TBlockContent } from '@circles/shared'
import { MESSAGES } from '@circles/shared'
import { fireEvent, screen, waitFor } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { conditionBlock } from '@/test/condition-block'
import { json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { seedStoredSession, validToken } from '@/test/tokens'
import { LedgerPage } from './ledger-page'

const CIRCLE = '11111111-1111-4111-8111-111111111111'

function block(height: number, overrides: Partial<TBlockContent> = {}, forgeHash = false): TBlock {
  const content = {
    v: 1,
    kind: 'HANDOVER',
    circle: { id: CIRCLE, name: 'Linden Street' },
    height,
    prevHash: '0'.repeat(64),
    first: height === 0,
    time: '2026-11-20T10:00:00.000Z',
    handoverId: '22222222-2222-4222-8222-22222222222' + height,
    item: { id: '33333333-3333-4333-8333-333333333333', name: 'Cordless drill' },
    from: { id: '44444444-4444-4444-8444-444444444444', name: 'Ida Owner' },
    to: { id: '55555555-5555-4555-8555-555555555555', name: 'Ben Neighbour' },
    ownership: 'COMPLETE',
    commitments: { requesterComment: null, receiverComment: null, secretMessage: null },
    ...overrides,
  } as TBlockContent
  return {
    id: '66666666-6666-4666-8666-66666666666' + height,
    hash: forgeHash ? 'f'.repeat(64) : blockHash(content),
    content,
    names: {
      from: { name: (content.from as { name: string | null }).name, salt: null },
      to: { name: (content.to as { name: string | null }).name, salt: null },
    },
    redacted: [],
    item: null,
    comments: { requesterComment: null, receiverComment: null, secretMessage: null },
    evidence: null,
  }
}

const render = (path = '/blockchain', language: 'en' | 'de' = 'en') =>
  renderPages(
    {
      '/blockchain': LedgerPage,
      '/blockchain/circle/:circleId': LedgerPage,
      '/blockchain/item/:itemId': LedgerPage,
    },
    path,
    { namespaces: ['ledger'], language },
  )

beforeEach(() => seedStoredSession(validToken()))
afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

describe('ledger page', () => {
  it('tells each block as a story and checks its hash on this device', async () => {
    mockApi({ 'GET /api/blockchain': () => json(200, { blocks: [block(1), block(0, {}, true)] }) })
    await render()
    expect(
      await screen.findAllByText('Ida Owner handed Cordless drill to Ben Neighbour, accepted'),
    ).toHaveLength(2)
    expect(screen.getByText('Hash checks out on this device')).toBeTruthy()
    expect(screen.getByText("Hash does not match this block's content")).toBeTruthy()
    expect(screen.getAllByTitle('f'.repeat(64))[0]!.textContent).toBe('ffffffff…ffff')
  })

  it('marks a block that records condition photos with their count, and checks a v5 block like any other (issue 28)', async () => {
    mockApi({ 'GET /api/blockchain': () => json(200, { blocks: [conditionBlock(), block(0)] }) })
    await render()
    expect(await screen.findByText('3 condition photos')).toBeTruthy()
    expect(screen.getAllByTestId('condition-badge')).toHaveLength(1)
    expect(screen.getAllByText('Hash checks out on this device')).toHaveLength(2)
  })

  it('verifies the circle and shows or hides the failing blocks', async () => {
    const failing = { index: 0, id: block(0).id, hash: 'a'.repeat(64), expectedHash: 'b'.repeat(64) }
    mockApi({
      [`GET /api/blockchain/circle/${CIRCLE}`]: () => json(200, { blocks: [block(0)] }),
      [`GET /api/blockchain/verify/${CIRCLE}`]: () =>
        json(200, {
          valid: false,
          message: MESSAGES.ledgerCompromised,
          blockCount: 1,
          failingBlocks: [failing],
          redactedBlocks: 0,
          treeMatchesCheckpoint: true,
          failingPhotos: [],
        }),
    })
    await render(`/blockchain/circle/${CIRCLE}`)
    fireEvent.click(await screen.findByRole('button', { name: 'Verify chain' }))
    expect(await screen.findByText('Compromised')).toBeTruthy()
    expect(screen.getByText('1 block verified, 1 failing.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Show failing blocks' }))
    expect(screen.getByRole('link', { name: '#0' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Hide failing blocks' }))
    await waitFor(() => expect(screen.queryByRole('link', { name: '#0' })).toBeNull())
  })

  it('lists the condition photos the server found changed or missing, each with its block (issue 28)', async () => {
    const v5 = conditionBlock()
    mockApi({
      [`GET /api/blockchain/circle/${CIRCLE}`]: () => json(200, { blocks: [v5] }),
      [`GET /api/blockchain/verify/${CIRCLE}`]: () =>
        json(200, {
          valid: false,
          message: MESSAGES.ledgerCompromised,
          blockCount: 4,
          failingBlocks: [],
          redactedBlocks: 0,
          treeMatchesCheckpoint: true,
          failingPhotos: [
            {
              blockId: v5.id,
              index: 3,
              side: 'from',
              photo: 2,
              expected: 'a'.repeat(64),
              actual: 'b'.repeat(64),
            },
            { blockId: v5.id, index: 3, side: 'to', photo: 1, expected: 'c'.repeat(64), actual: null },
          ],
        }),
      '*': () => json(503, { message: MESSAGES.notFound }),
    })
    await render(`/blockchain/circle/${CIRCLE}`)
    fireEvent.click(await screen.findByRole('button', { name: 'Verify chain' }))
    const list = await screen.findByTestId('verify-failing-photos')
    expect(list.textContent).toContain(
      'Block #3: photo 2 of the sender is not stored as the block recorded it.',
    )
    expect(list.textContent).toContain(
      "Block #3: photo 1 of the receiver is missing from the server's storage.",
    )
    expect(screen.getAllByRole('link', { name: 'Block #3' })[0]!.getAttribute('href')).toBe(
      `/blockchain/${v5.id}`,
    )
  })

  it('says so when the stored blocks do not make the signed tree, with every block passing (issue 29)', async () => {
    mockApi({
      [`GET /api/blockchain/circle/${CIRCLE}`]: () => json(200, { blocks: [block(0)] }),
      [`GET /api/blockchain/verify/${CIRCLE}`]: () =>
        json(200, {
          valid: false,
          message: MESSAGES.ledgerCompromised,
          blockCount: 1,
          failingBlocks: [],
          redactedBlocks: 0,
          treeMatchesCheckpoint: false,
          failingPhotos: [],
        }),
      '*': () => json(503, { message: MESSAGES.notFound }),
    })
    await render(`/blockchain/circle/${CIRCLE}`)
    fireEvent.click(await screen.findByRole('button', { name: 'Verify chain' }))
    expect(await screen.findByText('Compromised')).toBeTruthy()
    expect(
      screen.getByText(
        'The stored blocks do not make the tree the server signed last: a block was rewritten and its hashes recomputed.',
      ),
    ).toBeTruthy()
  })

  it('shows an erased name as Deleted member, a calm note on a redacted block, and counts it (issue 24)', async () => {
    const redacted = block(0)
    redacted.content = {
      ...redacted.content,
      from: { id: redacted.content.from.id, name: null },
    } as TBlockContent
    redacted.names = { ...redacted.names, from: { name: null, salt: null } }
    redacted.redacted = ['from']
    mockApi({
      [`GET /api/blockchain/circle/${CIRCLE}`]: () => json(200, { blocks: [redacted] }),
      [`GET /api/blockchain/verify/${CIRCLE}`]: () =>
        json(200, {
          valid: true,
          message: MESSAGES.ledgerValid,
          blockCount: 1,
          failingBlocks: [],
          redactedBlocks: 1,
          treeMatchesCheckpoint: true,
          failingPhotos: [],
        }),
      '*': () => json(404, { message: MESSAGES.notFound }),
    })
    await render(`/blockchain/circle/${CIRCLE}`)
    expect(
      await screen.findByText('Deleted member handed Cordless drill to Ben Neighbour, accepted'),
    ).toBeTruthy()
    expect(screen.getByTestId('block-redacted-note').textContent).toMatch(
      /erased when a member deleted their account.*still checked/,
    )
    expect(screen.getByText('Hash kept as recorded')).toBeTruthy()
    expect(screen.queryByText("Hash does not match this block's content")).toBeNull()
    fireEvent.click(await screen.findByRole('button', { name: 'Verify chain' }))
    expect(await screen.findByText(/1 of them had a member's name erased/)).toBeTruthy()
  })

  it('a double press on Verify chain asks the server once (issue 23)', async () => {
    const fetchMock = mockApi({
      [`GET /api/blockchain/circle/${CIRCLE}`]: () => json(200, { blocks: [block(0)] }),
      [`GET /api/blockchain/verify/${CIRCLE}`]: () =>
        json(200, {
          valid: true,
          message: MESSAGES.ledgerValid,
          blockCount: 1,
          failingBlocks: [],
          redactedBlocks: 0,
          treeMatchesCheckpoint: true,
          failingPhotos: [],
        }),
      '*': () => json(404, { message: MESSAGES.notFound }),
    })
    await render(`/blockchain/circle/${CIRCLE}`)
    const button = await screen.findByRole('button', { name: 'Verify chain' })
    fireEvent.click(button)
    fireEvent.click(button)
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([url]) => String(url).includes('/verify/'))).toHaveLength(1),
    )
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes('/verify/'))).toHaveLength(1)
  })

  it('a refused device check gives the server its say, not "offline", and raises no alarm', async () => {
    const signer = seedSigner('circles.example', new Uint8Array(32).fill(3))
    mockApi({
      [`GET /api/blockchain/circle/${CIRCLE}`]: () => json(200, { blocks: [block(0)] }),
      'GET /api/ledger/keys': () => json(200, { keys: [verifierKey(signer.name, signer.publicKey)] }),
      [`GET /api/ledger/${CIRCLE}/checkpoint`]: () => json(429, { message: MESSAGES.tooManyRequests }),
    })
    await render(`/blockchain/circle/${CIRCLE}`)
    expect(
      await screen.findByText(
        'The server answered: Too many requests. Please try again later. Nothing was found wrong; check again later.',
        undefined,
        { timeout: 5000 },
      ),
    ).toBeTruthy()
    expect(screen.getByText('The ledger could not be checked on this device')).toBeTruthy()
    expect(screen.queryByText('History was rewritten')).toBeNull()
  })

  it('says when there is nothing yet, and when loading failed', async () => {
    mockApi({ 'GET /api/blockchain': () => json(200, { blocks: [] }) })
    const empty = await render()
    expect(await screen.findByRole('heading', { name: 'No blockchain records found' })).toBeTruthy()
    empty.unmount()
    mockApi({ 'GET /api/blockchain': () => json(404, { message: 'Not found' }) })
    await render()
    expect(await screen.findByText('Error loading blockchain data')).toBeTruthy()
  })

  it('names the circle in a circle’s view, and offers only the filters that view leaves open', async () => {
    const other = { id: '77777777-7777-4777-8777-777777777777', name: 'Ladder' }
    mockApi({
      [`GET /api/blockchain/circle/${CIRCLE}`]: () =>
        json(200, { blocks: [block(1, { item: other }), block(0)] }),
    })
    await render(`/blockchain/circle/${CIRCLE}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Ledger of Linden Street' })).toBeTruthy()
    expect(screen.queryByRole('combobox', { name: 'Circle' })).toBeNull()
    const items = screen.getByRole('combobox', { name: 'Item' })
    expect([...items.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'All items',
      'Ladder',
      'Cordless drill',
    ])
    expect(screen.getByRole('link', { name: 'All circles' }).getAttribute('href')).toBe('/blockchain')
  })

  it('names the item in an item’s view, with no filters and a way to the whole circle', async () => {
    const ITEM = '33333333-3333-4333-8333-333333333333'
    mockApi({ [`GET /api/blockchain/item/${ITEM}`]: () => json(200, { blocks: [block(1), block(0)] }) })
    await render(`/blockchain/item/${ITEM}`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Ledger of Cordless drill' })).toBeTruthy()
    expect(screen.getByText('Every block about Cordless drill in Linden Street, newest first.')).toBeTruthy()
    expect(screen.queryByRole('combobox')).toBeNull()
    expect(screen.getByRole('link', { name: 'All blocks of Linden Street' }).getAttribute('href')).toBe(
      `/blockchain/circle/${CIRCLE}`,
    )
  })

  it('tells in German whether the member was removed by the admin or left, and keeps old blocks neutral', async () => {
    const auto = { kind: 'AUTO_TRANSFER', handoverId: null } as const
    mockApi({
      [`GET /api/blockchain/circle/${CIRCLE}`]: () =>
        json(200, {
          blocks: [
            block(2, { ...auto, v: 2, reason: 'REMOVED' } as Partial<TBlockContent>),
            block(1, { ...auto, v: 2, reason: 'LEFT' } as Partial<TBlockContent>),
            block(0, auto),
          ],
        }),
    })
    await render(`/blockchain/circle/${CIRCLE}`, 'de')
    expect(await screen.findByRole('heading', { level: 1, name: 'Protokoll von Linden Street' })).toBeTruthy()
    expect(
      screen.getByText(
        'Cordless drill ging automatisch von Ida Owner zurück an Ben Neighbour, als der Admin Ida Owner aus dem Kreis entfernte',
      ),
    ).toBeTruthy()
    expect(
      screen.getByText(
        'Cordless drill ging automatisch von Ida Owner zurück an Ben Neighbour, als Ida Owner den Kreis verließ',
      ),
    ).toBeTruthy()
    expect(
      screen.getByText(
        'Cordless drill ging automatisch von Ida Owner an Ben Neighbour, als Ida Owner nicht mehr im Kreis war',
      ),
    ).toBeTruthy()
    // Every block, v1 and v2, checks out on this device.
    expect(screen.getAllByText('Hash auf diesem Gerät geprüft').length).toBe(3)
  })

  it('tells a removed member so, instead of "Error loading blockchain data"', async () => {
    mockApi({
      [`GET /api/blockchain/circle/${CIRCLE}`]: () =>
        json(403, {
          message: MESSAGES.removedFromCircle,
          code: 'NO_LONGER_MEMBER',
          reason: 'REMOVED',
          circle: { id: CIRCLE, name: 'Linden Street' },
        }),
    })
    await render(`/blockchain/circle/${CIRCLE}`)
    expect(
      await screen.findByRole('heading', { level: 1, name: 'You were removed from Linden Street' }),
    ).toBeTruthy()
    expect(screen.queryByText('Error loading blockchain data')).toBeNull()
    expect(screen.queryByText('The ledger could not be checked on this device')).toBeNull()
  })
})

import { MESSAGES } from '@circles/shared'
import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BLOCK_ID, conditionBlock, jpegBytes, PHOTOS, photoUrl, SENDER_NOTE } from '@/test/condition-block'
import { restoreSession } from '@/lib/session'
import { json, mockApi, type ApiHandler } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { seedStoredSession, validToken } from '@/test/tokens'
import { BlockPage } from './block-page'

const picture =
  (bytes: Uint8Array): ApiHandler =>
  () =>
    new Response(bytes.slice(), { status: 200, headers: { 'Content-Type': 'image/jpeg' } })

/** The block and its photos as the server serves them; `replace` swaps the bytes of some. */
function serve(block = conditionBlock(), replace: Record<string, Uint8Array> = {}) {
  const photos: Record<string, ApiHandler> = {}
  for (const side of ['from', 'to'] as const) {
    PHOTOS[side].forEach((bytes, i) => {
      const url = photoUrl(side, i)
      photos[`GET ${url}`] = picture(replace[url] ?? bytes)
    })
  }
  return mockApi({
    [`GET /api/blockchain/${BLOCK_ID}`]: () => json(200, { block }),
    ...photos,
    // The device check's calls (its own tests cover them): the server does not answer here.
    '*': () => json(503, { message: MESSAGES.notFound }),
  })
}

const render = (language: 'en' | 'de' = 'en') =>
  renderPages({ '/blockchain/:id': BlockPage }, `/blockchain/${BLOCK_ID}`, {
    namespaces: ['ledger'],
    language,
  })

const photoTiles = () => screen.getAllByTestId('condition-photo')

beforeEach(() => {
  seedStoredSession(validToken())
  restoreSession()
})
afterEach(() => {
  vi.unstubAllGlobals()
  localStorage.clear()
})

describe('block page: condition evidence (issue 28)', () => {
  it('shows each side’s photos checked against the block, and the sender’s note with its check', async () => {
    const fetchMock = serve()
    await render()
    expect(await screen.findByRole('heading', { level: 2, name: 'Condition' })).toBeTruthy()
    // The v5 block itself checks out on this device, like every older version.
    expect(screen.getByText('Hash checks out on this device')).toBeTruthy()
    const sender = screen.getByTestId('condition-from')
    const receiver = screen.getByTestId('condition-to')
    expect(within(sender).getByRole('heading', { name: 'Ida Owner · handed it over' })).toBeTruthy()
    expect(within(receiver).getByRole('heading', { name: 'Ben Neighbour · received it' })).toBeTruthy()
    expect(within(sender).getByText(SENDER_NOTE)).toBeTruthy()
    expect(within(sender).getByText('Note matches the ledger')).toBeTruthy()

    await waitFor(() => expect(screen.getAllByText('Recorded in block #3')).toHaveLength(3))
    const first = within(sender).getByRole('img', { name: 'Photo 1 by Ida Owner' })
    expect(first.tagName).toBe('IMG')
    expect(first.getAttribute('src')).toMatch(/^blob:/)
    expect(within(receiver).getByRole('img', { name: 'Photo 1 by Ben Neighbour' }).tagName).toBe('IMG')
    expect(photoTiles().map((tile) => tile.dataset.status)).toEqual(['verified', 'verified', 'verified'])
    expect(screen.queryByTestId('condition-alarm')).toBeNull()
    // Fetched with the session, as every members-only picture.
    const call = fetchMock.mock.calls.find(([url]) => String(url) === photoUrl('from', 0))!
    expect((call[1]!.headers as Record<string, string>).Authorization).toMatch(/^Bearer /)
  })

  it('raises the alarm on a photo served with other bytes, names it, and does not show those bytes', async () => {
    serve(conditionBlock(), { [photoUrl('from', 1)]: jpegBytes('a different picture') })
    await render()
    const alarm = await screen.findByTestId('condition-alarm')
    expect(alarm.getAttribute('role')).toBe('alert')
    expect(within(alarm).getByText('A recorded photo or note was changed')).toBeTruthy()
    expect(
      within(alarm).getByText(
        'Photo 2 by Ida Owner is not the one recorded in block #3: the server sent other bytes.',
      ),
    ).toBeTruthy()
    expect(within(alarm).getByRole('button', { name: 'Download evidence' })).toBeTruthy()
    await waitFor(() =>
      expect(photoTiles().map((tile) => tile.dataset.status)).toEqual(['verified', 'mismatch', 'verified']),
    )
    const swapped = photoTiles()[1]!
    expect(within(swapped).getByText('Not the photo recorded in block #3')).toBeTruthy()
    expect(swapped.querySelector('img')).toBeNull()
  })

  it('raises the alarm on a note that does not open its commitment', async () => {
    const block = conditionBlock()
    block.evidence!.from.note = 'No scratch at all'
    serve(block)
    await render()
    expect(await screen.findByText('The note by Ida Owner is not the one recorded in block #3.')).toBeTruthy()
    expect(screen.getByText('This note is not the one recorded')).toBeTruthy()
  })

  it('a photo that cannot be fetched is not checked, raises no alarm, and can be tried again', async () => {
    let down = true
    const unavailable = () => json(503, { message: MESSAGES.notFound })
    mockApi({
      [`GET /api/blockchain/${BLOCK_ID}`]: () => json(200, { block: conditionBlock() }),
      // The receiver's photo answers once the server is back; the sender's stay down.
      [`GET ${photoUrl('to', 0)}`]: (body, init) =>
        down ? unavailable() : picture(PHOTOS.to[0]!)(body, init),
      '*': unavailable,
    })
    await render()
    await waitFor(
      () => expect(screen.getAllByText('Could not be loaded, so it was not checked.')).toHaveLength(3),
      { timeout: 5000 },
    )
    expect(screen.queryByTestId('condition-alarm')).toBeNull()
    down = false
    const receiver = screen.getByTestId('condition-to')
    fireEvent.click(within(receiver).getByRole('button', { name: 'Try again' }))
    expect(await within(receiver).findByText('Recorded in block #3')).toBeTruthy()
    expect(screen.queryByTestId('condition-alarm')).toBeNull()
  })

  it('says a photo was deleted with its item while its fingerprint stays', async () => {
    const fetchMock = serve(conditionBlock({ deleted: true }))
    await render()
    await screen.findByRole('heading', { level: 2, name: 'Condition' })
    expect(screen.getAllByText('Deleted with the item. Its fingerprint stays in block #3.')).toHaveLength(3)
    expect(photoTiles().map((tile) => tile.dataset.status)).toEqual(['deleted', 'deleted', 'deleted'])
    expect(screen.queryByTestId('condition-alarm')).toBeNull()
    expect(fetchMock.mock.calls.some(([url]) => String(url).startsWith('/api/handovers/photos/'))).toBe(false)
    // A copy someone kept can still be checked against the fingerprints.
    expect(screen.getByRole('heading', { name: 'Check a photo' })).toBeTruthy()
  })

  it('Check a photo: names the photo a file is, or says it is none of them', async () => {
    serve()
    await render()
    const input = (await screen.findByLabelText('Choose a picture')) as HTMLInputElement
    const result = screen.getByTestId('check-photo-result')

    fireEvent.change(input, {
      target: { files: [new File([PHOTOS.from[1]!], 'kept.jpg', { type: 'image/jpeg' })] },
    })
    expect(
      await within(result).findByText('kept.jpg is photo 2 by Ida Owner, recorded in block #3.'),
    ).toBeTruthy()
    expect(within(result).getByText("One of this block's photos")).toBeTruthy()

    const other = new File([jpegBytes('looks the same')], 'other.jpg', { type: 'image/jpeg' })
    fireEvent.change(input, { target: { files: [other] } })
    expect(await within(result).findByText("Not one of this block's photos")).toBeTruthy()
    expect(
      within(result).getByText(/other\.jpg has a different fingerprint from every photo block #3/),
    ).toBeTruthy()

    // Dropped on the zone, like a picked file.
    const drop = screen.getByTestId('check-photo-drop')
    fireEvent.drop(drop, {
      dataTransfer: { files: [new File([PHOTOS.to[0]!], 'ben.jpg', { type: 'image/jpeg' })] },
    })
    expect(
      await within(result).findByText('ben.jpg is photo 1 by Ben Neighbour, recorded in block #3.'),
    ).toBeTruthy()

    fireEvent.change(input, {
      target: { files: [new File(['just text'], 'notes.txt', { type: 'text/plain' })] },
    })
    expect(
      await within(result).findByText(
        "notes.txt is not a JPEG, PNG or WebP picture, so it is none of this block's photos.",
      ),
    ).toBeTruthy()

    // Too large to be a kept photo: answered without reading it.
    const huge = new File([jpegBytes('x')], 'huge.jpg', { type: 'image/jpeg' })
    Object.defineProperty(huge, 'size', { value: 200 * 1024 * 1024 })
    const read = vi.spyOn(huge, 'arrayBuffer')
    fireEvent.change(input, { target: { files: [huge] } })
    expect(await within(result).findByText(/huge\.jpg is larger than 25 MB/)).toBeTruthy()
    expect(read).not.toHaveBeenCalled()
  })

  it('speaks German', async () => {
    serve(conditionBlock(), { [photoUrl('to', 0)]: jpegBytes('swapped') })
    await render('de')
    expect(await screen.findByRole('heading', { level: 2, name: 'Zustand' })).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'Ida Owner · hat übergeben' })).toBeTruthy()
    expect(screen.getByText('Notiz passt zum Protokoll')).toBeTruthy()
    await waitFor(() => expect(screen.getAllByText('Festgehalten in Block #3')).toHaveLength(2))
    expect(
      await screen.findByText(
        'Foto 1 von Ben Neighbour ist nicht das in Block #3 festgehaltene: Der Server hat andere Bytes geschickt.',
      ),
    ).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'Foto prüfen' })).toBeTruthy()
  })
})

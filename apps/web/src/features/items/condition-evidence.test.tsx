import { MESSAGES, type THandover } from '@circles/shared'
import { fireEvent, screen, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { conditionPhoto, fakeUploads, jpegFile } from '@/test/fake-upload'
import { testItem, TEST_CIRCLE_ID } from '@/test/items'
import { ASK_ID, BEN, LOAN_ID, lendingOf, testAsk, testLoan } from '@/test/lending'
import { callCount, json, mockApi, sentBodies } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { HandoverPage } from './routes/handover-page'
import { ItemPage } from './routes/item-page'

// Issue 28 on the handover screens: the sender's photos and note with the request, the receiver's own or
// 'as described' with the answer, and the item page's condition timeline.

// The shrinking step runs in a worker in the browser; here every picture is small enough as it is.
vi.mock('@/lib/compress-image', () => ({
  compressImage: (file: File) => Promise.resolve({ file, fellBack: false }),
}))

const ITEM = testItem().id
const HANDOVER = '22222222-2222-4222-8222-222222222222'
const NONE = { note: null, photos: [] }

const circle = {
  id: TEST_CIRCLE_ID,
  name: 'Linden Street',
  description: null,
  adminId: testUser.id,
  createdAt: '2026-10-01T10:00:00.000Z',
  memberCount: 2,
  items: [],
  users: [
    {
      id: crypto.randomUUID(),
      role: 'ADMIN',
      userId: testUser.id,
      joinedAt: '2026-10-01T10:00:00.000Z',
      user: testUser,
    },
    {
      id: crypto.randomUUID(),
      role: 'MEMBER',
      userId: BEN.id,
      joinedAt: '2026-10-02T10:00:00.000Z',
      user: { ...BEN, email: 'ben@example.com' },
    },
  ],
}

const handover = (extra: Partial<THandover> = {}): THandover => ({
  id: HANDOVER,
  itemId: ITEM,
  circleId: TEST_CIRCLE_ID,
  senderId: testUser.id,
  receiverId: BEN.id,
  status: 'PENDING',
  requesterComment: null,
  secretMessage: null,
  hasSecretMessage: false,
  receiverComment: null,
  completeOwnership: false,
  kind: 'TRANSFER',
  dueAt: null,
  loanId: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  answeredAt: null,
  sender: { name: testUser.name },
  receiver: { name: BEN.name },
  item: { name: 'Cordless drill', thumbnailUrl: null },
  block: null,
  condition: { sender: NONE, receiver: NONE, asDescribed: false },
  ...extra,
})

/** Ben handing the drill to the signed-in user, with two photos and a note. */
const incoming = (extra: Partial<THandover> = {}) =>
  handover({
    senderId: BEN.id,
    receiverId: testUser.id,
    sender: { name: BEN.name },
    receiver: { name: testUser.name },
    condition: {
      sender: { note: 'Scratch on the left side', photos: [conditionPhoto(), conditionPhoto()] },
      receiver: NONE,
      asDescribed: false,
    },
    ...extra,
  })

function api(handovers: THandover[] = [], extra = {}, item = testItem()) {
  return mockApi({
    [`GET /api/items/${ITEM}`]: () => json(200, { item }),
    [`GET /api/items/${ITEM}/ownership-status`]: () => json(200, { hasFullOwnership: true }),
    [`GET /api/handovers/item/${ITEM}`]: () => json(200, { handovers }),
    [`GET /api/circles/${TEST_CIRCLE_ID}`]: () => json(200, { circle }),
    [`GET /api/items/${ITEM}/borrow-requests`]: () => json(200, { borrowRequests: [] }),
    // The thumbnails, fetched with the session (PrivateImage).
    'GET /api/handovers/photos/*': () => new Response(new Blob(['x'], { type: 'image/webp' })),
    'DELETE /api/handovers/photos/*': () => new Response(null, { status: 204 }),
    ...extra,
  })
}

const open = (path: string, language: 'en' | 'de' = 'en') =>
  renderPages({ '/items/:itemId/handover': HandoverPage, '/items/:itemId': ItemPage }, path, {
    namespaces: ['items', 'loans'],
    language,
  })

const pick = (files: File[]) =>
  fireEvent.change(screen.getByLabelText('Choose photos'), { target: { files } })

beforeEach(() => startSession(validToken(), testUser))
afterEach(() => vi.unstubAllGlobals())
vi.setConfig({ testTimeout: 20_000 })

describe('the request carries the condition (issue 28)', () => {
  it('uploads each photo at once, sends their ids and the note; × deletes an unsent photo', async () => {
    const photos = [conditionPhoto(), conditionPhoto(), conditionPhoto()]
    const uploads = fakeUploads((_, n) => ({ status: 201, body: { photo: photos[n - 1] } }))
    const fetchMock = api([], { 'POST /api/handovers': () => json(201, { handover: handover() }) })
    await open(`/items/${ITEM}/handover`)
    fireEvent.change(await screen.findByLabelText('Receiver'), { target: { value: BEN.id } })
    pick([jpegFile('a.jpg'), jpegFile('b.jpg'), jpegFile('c.jpg')])
    await vi.waitFor(() => expect(screen.getAllByText('Uploaded')).toHaveLength(3))
    expect(uploads.map((u) => `${u.method} ${u.url}`)).toEqual(Array(3).fill('POST /api/handovers/photos'))
    expect(screen.getByText('3 of 4 photos')).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: 'Remove photo 2' }))
    await vi.waitFor(() =>
      expect(callCount(fetchMock, `DELETE /api/handovers/photos/${photos[1]!.id}`)).toBe(1),
    )
    fireEvent.change(screen.getByLabelText('Condition note'), { target: { value: '  Dent on the lid  ' } })
    const send = screen.getByRole('button', { name: 'Send handover request' })
    fireEvent.click(send)
    fireEvent.click(send)
    await vi.waitFor(() => expect(callCount(fetchMock, 'POST /api/handovers')).toBe(1))
    expect(sentBodies(fetchMock, 'POST /api/handovers')[0]).toMatchObject({
      condition: { photoIds: [photos[0]!.id, photos[2]!.id], note: 'Dent on the lid' },
    })
  })

  it('a request without photos or note carries no condition', async () => {
    const fetchMock = api([], { 'POST /api/handovers': () => json(201, { handover: handover() }) })
    await open(`/items/${ITEM}/handover`)
    fireEvent.change(await screen.findByLabelText('Receiver'), { target: { value: BEN.id } })
    fireEvent.click(screen.getByRole('button', { name: 'Send handover request' }))
    await vi.waitFor(() => expect(callCount(fetchMock, 'POST /api/handovers')).toBe(1))
    expect(sentBodies(fetchMock, 'POST /api/handovers')[0]).not.toHaveProperty('condition')
  })

  it('a fifth photo is impossible, and the buttons say why', async () => {
    fakeUploads(() => ({ status: 201, body: { photo: conditionPhoto() } }))
    api()
    await open(`/items/${ITEM}/handover`)
    await screen.findByLabelText('Receiver')
    pick([jpegFile('1.jpg'), jpegFile('2.jpg'), jpegFile('3.jpg'), jpegFile('4.jpg'), jpegFile('5.jpg')])
    expect(await screen.findByText('1 photo was not added: at most 4 per side.')).toBeTruthy()
    await vi.waitFor(() => expect(screen.getAllByText('Uploaded')).toHaveLength(4))
    expect((screen.getByRole('button', { name: 'Take a photo' }) as HTMLButtonElement).disabled).toBe(true)
    expect((screen.getByLabelText('Choose photos') as HTMLInputElement).disabled).toBe(true)
    expect(screen.getByText('4 photos added, the most for one side. Remove one to add another.')).toBeTruthy()
  })

  it("refuses a file that is no picture with the spec's message, before any upload (German too)", async () => {
    const uploads = fakeUploads(() => ({ status: 201, body: { photo: conditionPhoto() } }))
    api()
    await open(`/items/${ITEM}/handover`, 'de')
    await screen.findByLabelText('Empfänger:in')
    const fake = new File(['not a picture'], 'notes.jpg', { type: 'image/jpeg' })
    fireEvent.change(screen.getByLabelText('Fotos auswählen'), { target: { files: [fake] } })
    expect(
      await screen.findByText(
        'notes.jpg: Ungültiger Dateityp. Bitte lade ein JPEG-, PNG- oder WebP-Bild hoch.',
      ),
    ).toBeTruthy()
    expect(uploads).toHaveLength(0)
  })

  it("shows an upload's refusal with the server's reason, waits for it, and retries", async () => {
    let refuse = true
    fakeUploads(() =>
      refuse
        ? { status: 400, body: { message: MESSAGES.imageProcessingFailed, key: 'imageProcessingFailed' } }
        : { status: 201, body: { photo: conditionPhoto() } },
    )
    api()
    await open(`/items/${ITEM}/handover`)
    fireEvent.change(await screen.findByLabelText('Receiver'), { target: { value: BEN.id } })
    pick([jpegFile()])
    expect(await screen.findByText(MESSAGES.imageProcessingFailed)).toBeTruthy()
    expect(screen.getByText('A photo was not uploaded: try it again or remove it.')).toBeTruthy()
    const send = screen.getByRole('button', { name: 'Send handover request' }) as HTMLButtonElement
    expect(send.disabled).toBe(true)
    refuse = false
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    await screen.findByText('Uploaded')
    expect(send.disabled).toBe(false)
  })
})

describe("the receiver's answer (issue 28)", () => {
  it("shows the sender's photos and note; 'as described' sets own photos and note aside and is sent alone", async () => {
    const fetchMock = api([incoming()], {
      [`PUT /api/handovers/${HANDOVER}/status`]: () =>
        json(200, { handover: incoming({ status: 'CONFIRMED' }), receipt: null }),
    })
    fakeUploads(() => ({ status: 201, body: { photo: conditionPhoto() } }))
    await open(`/items/${ITEM}/handover`)
    const card = (await screen.findAllByRole('listitem')).find((li) => li.textContent?.includes('Accept'))!
    expect(within(card).getByText('Scratch on the left side')).toBeTruthy()
    expect(within(card).getByRole('button', { name: `Photo 1 of 2 by ${BEN.name}, open large` })).toBeTruthy()

    fireEvent.change(within(card).getByLabelText('Condition note'), { target: { value: 'Also a dent' } })
    fireEvent.click(within(card).getByLabelText('Accept as described'))
    expect((within(card).getByLabelText('Condition note') as HTMLTextAreaElement).disabled).toBe(true)
    expect((within(card).getByRole('button', { name: 'Take a photo' }) as HTMLButtonElement).disabled).toBe(
      true,
    )
    expect(within(card).getByText("Not sent while 'Accept as described' is ticked.")).toBeTruthy()
    fireEvent.click(within(card).getByRole('button', { name: 'Accept' }))
    await vi.waitFor(() => expect(callCount(fetchMock, `PUT /api/handovers/${HANDOVER}/status`)).toBe(1))
    expect(sentBodies(fetchMock, `PUT /api/handovers/${HANDOVER}/status`)[0]).toMatchObject({
      status: 'CONFIRMED',
      condition: { photoIds: [], note: null, asDescribed: true },
    })
  })

  it('sends own photos and note with a rejection too, and shows the server refusal in its words', async () => {
    const photo = conditionPhoto()
    const fetchMock = api([incoming()], {
      [`PUT /api/handovers/${HANDOVER}/status`]: () =>
        json(400, { message: MESSAGES.conditionPhotoNotFound, key: 'conditionPhotoNotFound' }),
    })
    fakeUploads(() => ({ status: 201, body: { photo } }))
    await open(`/items/${ITEM}/handover`, 'de')
    const card = (await screen.findAllByRole('listitem')).find((li) => li.textContent?.includes('Ablehnen'))!
    fireEvent.change(within(card).getByLabelText('Fotos auswählen'), { target: { files: [jpegFile()] } })
    await within(card).findByText('Hochgeladen')
    fireEvent.change(within(card).getByLabelText('Notiz zum Zustand'), {
      target: { value: 'Delle am Deckel' },
    })
    fireEvent.click(within(card).getByRole('button', { name: 'Ablehnen' }))
    expect(
      await screen.findByText('Ein Foto ist nicht mehr verfügbar. Bitte füge es noch einmal hinzu.'),
    ).toBeTruthy()
    expect(sentBodies(fetchMock, `PUT /api/handovers/${HANDOVER}/status`)[0]).toMatchObject({
      status: 'REJECTED',
      condition: { photoIds: [photo.id], note: 'Delle am Deckel', asDescribed: false },
    })
  })

  it("answers on the item page too: the receiver's note and photo go with the acceptance", async () => {
    const photo = conditionPhoto()
    const fetchMock = api([incoming()], {
      [`PUT /api/handovers/${HANDOVER}/status`]: () =>
        json(200, { handover: incoming({ status: 'CONFIRMED' }), receipt: null }),
    })
    fakeUploads(() => ({ status: 201, body: { photo } }))
    await open(`/items/${ITEM}`)
    const answer = await screen.findByRole('region', { name: 'Item Handover Received' })
    expect(within(answer).getByText('Scratch on the left side')).toBeTruthy()
    fireEvent.change(within(answer).getByLabelText('Choose photos'), { target: { files: [jpegFile()] } })
    await within(answer).findByText('Uploaded')
    fireEvent.change(within(answer).getByLabelText('Condition note'), {
      target: { value: 'Received with a dent on the lid' },
    })
    fireEvent.click(within(answer).getByRole('button', { name: 'Accept' }))
    await vi.waitFor(() => expect(callCount(fetchMock, `PUT /api/handovers/${HANDOVER}/status`)).toBe(1))
    expect(sentBodies(fetchMock, `PUT /api/handovers/${HANDOVER}/status`)[0]).toEqual({
      status: 'CONFIRMED',
      receiverComment: '',
      condition: { photoIds: [photo.id], note: 'Received with a dent on the lid', asDescribed: false },
    })
  })

  it("does not offer 'as described' when the sender attached nothing", async () => {
    api([incoming({ condition: { sender: NONE, receiver: NONE, asDescribed: false } })])
    await open(`/items/${ITEM}/handover`)
    await screen.findByRole('button', { name: 'Accept' })
    expect(screen.queryByLabelText('Accept as described')).toBeNull()
    expect(screen.getByLabelText('Condition note')).toBeTruthy()
  })

  it('the sender sees what they attached on their pending request', async () => {
    api([
      handover({
        condition: {
          sender: { note: 'Charger included', photos: [conditionPhoto()] },
          receiver: NONE,
          asDescribed: false,
        },
      }),
    ])
    await open(`/items/${ITEM}/handover`)
    expect(await screen.findByText('You recorded')).toBeTruthy()
    expect(screen.getByText('Charger included')).toBeTruthy()
  })
})

describe("the item page's condition timeline (issue 28)", () => {
  const confirmed = (id: string, createdAt: string, height: number, extra: Partial<THandover> = {}) =>
    incoming({
      id,
      status: 'CONFIRMED',
      createdAt,
      answeredAt: createdAt,
      block: { id: `99999999-9999-4999-8999-00000000000${height}`, hash: 'ab'.repeat(32), height },
      ...extra,
    })

  it('lists handovers with evidence, newest first, with both sides and the block that records them', async () => {
    api([
      confirmed('22222222-2222-4222-8222-000000000001', '2026-11-01T10:00:00.000Z', 1, {
        condition: {
          sender: { note: 'Like new', photos: [] },
          receiver: NONE,
          asDescribed: true,
        },
      }),
      // No evidence: not in the timeline.
      confirmed('22222222-2222-4222-8222-000000000002', '2026-11-10T10:00:00.000Z', 2, {
        condition: { sender: NONE, receiver: NONE, asDescribed: false },
      }),
      confirmed('22222222-2222-4222-8222-000000000003', '2026-11-20T10:00:00.000Z', 3, {
        kind: 'RETURN',
        condition: {
          sender: { note: 'Scratch on the left side', photos: [conditionPhoto()] },
          receiver: { note: 'Dent on the lid', photos: [conditionPhoto()] },
          asDescribed: false,
        },
      }),
    ])
    await open(`/items/${ITEM}`)
    const section = (await screen.findByRole('heading', { level: 2, name: 'Condition' })).closest('section')!
    const entries = await within(section).findAllByRole('listitem')
    const top = entries.filter((li) => li.parentElement?.tagName === 'OL')
    expect(top).toHaveLength(2)
    expect(top[0]!.textContent).toContain('Return')
    expect(top[0]!.textContent).toContain('Dent on the lid')
    expect(within(top[0]!).getByRole('link', { name: 'Recorded in block #3' }).getAttribute('href')).toBe(
      '/blockchain/99999999-9999-4999-8999-000000000003',
    )
    expect(top[1]!.textContent).toContain('Accepted as described.')
    expect(within(top[1]!).getByRole('link', { name: 'Recorded in block #1' })).toBeTruthy()
  })

  it('says so when no handover recorded any, in German', async () => {
    api([])
    await open(`/items/${ITEM}`, 'de')
    expect(
      await screen.findByText(/^Noch keine Fotos oder Notizen\. Wenn dieser Gegenstand übergeben/),
    ).toBeTruthy()
  })

  it('opens a photo large on a tap', async () => {
    api([confirmed('22222222-2222-4222-8222-000000000003', '2026-11-20T10:00:00.000Z', 3)])
    await open(`/items/${ITEM}`)
    fireEvent.click(await screen.findByRole('button', { name: `Photo 2 of 2 by ${BEN.name}, open large` }))
    expect(await screen.findByRole('img', { name: `Photo 2 of 2 by ${BEN.name}` })).toBeTruthy()
  })
})

describe('the return of a loan carries the condition it comes back in (issue 28)', () => {
  it('sends the photos and the note with POST /loans/:id/return, and waits for an upload', async () => {
    const lender = { id: '55555555-5555-4555-8555-555555555555', name: 'Otto Owner' }
    const loan = testLoan({ lender, borrower: { id: testUser.id, name: testUser.name } })
    const photo = conditionPhoto()
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    fakeUploads(() => ({ status: 201, body: { photo } }), held)
    const fetchMock = api(
      [],
      {
        [`GET /api/loans/${loan.id}`]: () => json(200, { loan }),
        [`POST /api/loans/${LOAN_ID}/return`]: () => json(201, { loan }),
      },
      testItem({
        ownerId: lender.id,
        owner: { name: lender.name },
        circle: { name: 'Linden Street', adminId: lender.id },
        lending: lendingOf(loan),
      }),
    )
    await open(`/items/${ITEM}`)
    const lending = await screen.findByRole('region', { name: 'Lending' })
    fireEvent.click(await within(lending).findByRole('button', { name: 'Return' }))
    const dialog = screen.getByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText('Choose photos'), { target: { files: [jpegFile()] } })
    // While the photo is on its way, the return waits for it and says so.
    expect(await within(dialog).findByText('Waiting for the photos to finish uploading…')).toBeTruthy()
    expect((within(dialog).getByRole('button', { name: 'Return' }) as HTMLButtonElement).disabled).toBe(true)
    release()
    await within(dialog).findByText('Uploaded')
    fireEvent.change(within(dialog).getByLabelText('Condition note'), { target: { value: 'Cleaned, works' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Return' }))
    await vi.waitFor(() => expect(callCount(fetchMock, `POST /api/loans/${LOAN_ID}/return`)).toBe(1))
    expect(sentBodies(fetchMock, `POST /api/loans/${LOAN_ID}/return`)[0]).toEqual({
      comment: '',
      condition: { photoIds: [photo.id], note: 'Cleaned, works' },
    })
  })
})

describe('accepting an ask to borrow carries the condition it is lent in (issue 28)', () => {
  it('sends the photos and the note with the acceptance', async () => {
    const photo = conditionPhoto()
    fakeUploads(() => ({ status: 201, body: { photo } }))
    const fetchMock = api(
      [],
      {
        [`GET /api/items/${ITEM}/borrow-requests`]: () => json(200, { borrowRequests: [testAsk()] }),
        [`PUT /api/borrow-requests/${ASK_ID}`]: () =>
          json(200, { borrowRequest: testAsk({ status: 'OFFERED', handoverId: crypto.randomUUID() }) }),
      },
      testItem({ lending: { loan: null, queueLength: 1 } }),
    )
    await open(`/items/${ITEM}`)
    const queue = await screen.findByRole('region', { name: 'Asks to borrow' })
    fireEvent.click(await within(queue).findByRole('button', { name: 'Accept' }))
    const dialog = screen.getByRole('dialog')
    fireEvent.change(within(dialog).getByLabelText('Choose photos'), { target: { files: [jpegFile()] } })
    await within(dialog).findByText('Uploaded')
    fireEvent.change(within(dialog).getByLabelText('Condition note'), { target: { value: 'Fresh blade' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Lend' }))
    await vi.waitFor(() => expect(callCount(fetchMock, `PUT /api/borrow-requests/${ASK_ID}`)).toBe(1))
    expect(sentBodies(fetchMock, `PUT /api/borrow-requests/${ASK_ID}`)[0]).toMatchObject({
      status: 'ACCEPTED',
      condition: { photoIds: [photo.id], note: 'Fresh blade' },
    })
  })
})

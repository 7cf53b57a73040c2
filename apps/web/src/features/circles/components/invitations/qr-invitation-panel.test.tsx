import { MESSAGES } from '@circles/shared'
import { act, fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { forwardRef, type ComponentProps } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { API, callCount, invitation, json, mockApi, renderInvitations } from './test-support'
import { qrFileName } from './invitation-text'

// The real component draws on a canvas happy-dom cannot paint; this stand-in shows what it was given.
vi.mock('qrcode.react', () => ({
  QRCodeCanvas: forwardRef<
    HTMLCanvasElement,
    ComponentProps<'canvas'> & { value: string; size: number; level: string; marginSize?: number }
  >(function QRCodeCanvas({ value, size, level, marginSize: _margin, ...props }, ref) {
    return <canvas ref={ref} data-value={value} data-size={size} data-level={level} {...props} />
  }),
}))

const trackEvent = vi.hoisted(() => vi.fn())
vi.mock('@/lib/analytics', () => ({ trackEvent }))

const TOKEN = 'c0ffee'.repeat(10) + 'abcd'

function qrAnswer(email = 'ada@example.com') {
  return { invitation: { ...invitation({ email, type: 'qr' }), token: TOKEN }, message: MESSAGES.qrGenerated }
}

async function openQrPanel() {
  await renderInvitations()
  fireEvent.click(await screen.findByRole('button', { name: 'Share QR code' }))
  return screen.findByRole('region', { name: 'Share a QR code' })
}

async function generate(email = 'ada@example.com') {
  const panel = await openQrPanel()
  fireEvent.change(within(panel).getByLabelText("Invitee's email"), { target: { value: email } })
  fireEvent.click(within(panel).getByRole('button', { name: 'Generate QR code' }))
  await screen.findByRole('img', { name: `QR code inviting ${email.toLowerCase()}` })
  return panel
}

beforeEach(() => trackEvent.mockClear())
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('QR invitation panel', () => {
  it('hides both buttons while open and brings them back on close', async () => {
    mockApi({ [`GET ${API}/invitations`]: () => json(200, { invitations: [] }) })
    const panel = await openQrPanel()
    expect(screen.queryByRole('button', { name: 'Share QR code' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Invite by email' })).toBeNull()
    fireEvent.click(within(panel).getByRole('button', { name: 'Close' }))
    expect(await screen.findByRole('button', { name: 'Share QR code' })).toBe(document.activeElement)
    expect(screen.getByRole('button', { name: 'Invite by email' })).toBeTruthy()
  })

  it('requires the invitee email', async () => {
    const fetchMock = mockApi({ [`GET ${API}/invitations`]: () => json(200, { invitations: [] }) })
    const panel = await openQrPanel()
    fireEvent.click(within(panel).getByRole('button', { name: 'Generate QR code' }))
    expect(await within(panel).findByText(MESSAGES.emailRequired)).toBeTruthy()
    expect(callCount(fetchMock, `POST ${API}/invitations/qr`)).toBe(0)
  })

  it('generates the code: 200 px, level H, encoding {host}/join?token=, with the link to copy', async () => {
    const fetchMock = mockApi({
      [`GET ${API}/invitations`]: () => json(200, { invitations: [] }),
      [`POST ${API}/invitations/qr`]: (body) => {
        expect(body).toEqual({ email: 'ada@example.com' })
        return json(201, qrAnswer())
      },
    })
    const panel = await generate('Ada@Example.com')
    const link = `${window.location.origin}/join?token=${TOKEN}`
    const code = screen.getByRole('img', { name: 'QR code inviting ada@example.com' })
    expect(code.dataset).toMatchObject({ value: link, size: '200', level: 'H' })
    expect((within(panel).getByLabelText('Invitation link') as HTMLInputElement).value).toBe(link)
    expect(await screen.findByText(MESSAGES.qrGenerated)).toBeTruthy()
    expect(trackEvent).toHaveBeenCalledWith('circle_invite_sent', { type: 'qr' })
    // The pending list picks the new invitation up.
    await waitFor(() => expect(callCount(fetchMock, `GET ${API}/invitations`)).toBeGreaterThan(1))
  })

  it('copies the link and shows the notice for 3 s', async () => {
    mockApi({
      [`GET ${API}/invitations`]: () => json(200, { invitations: [] }),
      [`POST ${API}/invitations/qr`]: () => json(201, qrAnswer()),
    })
    const writeText = vi.fn(() => Promise.resolve())
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } })
    const panel = await generate()
    vi.useFakeTimers({ shouldAdvanceTime: true })
    fireEvent.click(within(panel).getByRole('button', { name: 'Copy link' }))
    expect(await within(panel).findByText(MESSAGES.linkCopied)).toBeTruthy()
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/join?token=${TOKEN}`)
    await act(() => vi.advanceTimersByTimeAsync(2900))
    expect(within(panel).queryByText(MESSAGES.linkCopied)).toBeTruthy()
    await act(() => vi.advanceTimersByTimeAsync(200))
    expect(within(panel).queryByText(MESSAGES.linkCopied)).toBeNull()
  })

  it('says when the clipboard refuses', async () => {
    mockApi({
      [`GET ${API}/invitations`]: () => json(200, { invitations: [] }),
      [`POST ${API}/invitations/qr`]: () => json(201, qrAnswer()),
    })
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: () => Promise.reject(new Error('no')) },
    })
    const panel = await generate()
    fireEvent.click(within(panel).getByRole('button', { name: 'Copy link' }))
    expect(await screen.findByText(MESSAGES.linkCopyFailed)).toBeTruthy()
    expect(within(panel).queryByText(MESSAGES.linkCopied)).toBeNull()
  })

  it('downloads a PNG named after the invitee', async () => {
    mockApi({
      [`GET ${API}/invitations`]: () => json(200, { invitations: [] }),
      [`POST ${API}/invitations/qr`]: () => json(201, qrAnswer()),
    })
    vi.spyOn(HTMLCanvasElement.prototype, 'toDataURL').mockReturnValue('data:image/png;base64,AAAA')
    const clicked: HTMLAnchorElement[] = []
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this)
    })
    const panel = await generate()
    fireEvent.click(within(panel).getByRole('button', { name: 'Download PNG' }))
    expect(clicked).toHaveLength(1)
    expect(clicked[0]!.download).toBe('invitation-ada@example.com.png')
    expect(clicked[0]!.href).toBe('data:image/png;base64,AAAA')
  })

  it("'Create Another QR Code' clears email and token and returns to the form", async () => {
    mockApi({
      [`GET ${API}/invitations`]: () => json(200, { invitations: [] }),
      [`POST ${API}/invitations/qr`]: () => json(201, qrAnswer()),
    })
    const panel = await generate()
    fireEvent.click(within(panel).getByRole('button', { name: 'Create Another QR Code' }))
    const field = (await within(panel).findByLabelText("Invitee's email")) as HTMLInputElement
    expect(field.value).toBe('')
    expect(screen.queryByRole('img', { name: /QR code inviting/ })).toBeNull()
    expect(within(panel).queryByLabelText('Invitation link')).toBeNull()
  })

  it.each([
    [409, { message: MESSAGES.alreadyMember, code: 'ALREADY_MEMBER' }, MESSAGES.alreadyMember],
    [500, undefined, MESSAGES.qrFailed],
  ])('shows the server message first, else the fallback (%i)', async (status, body, text) => {
    mockApi({
      [`GET ${API}/invitations`]: () => json(200, { invitations: [] }),
      [`POST ${API}/invitations/qr`]: () => json(status, body),
    })
    const panel = await openQrPanel()
    fireEvent.change(within(panel).getByLabelText("Invitee's email"), {
      target: { value: 'ada@example.com' },
    })
    fireEvent.click(within(panel).getByRole('button', { name: 'Generate QR code' }))
    expect((await within(panel).findByRole('alert')).textContent).toBe(text)
  })
})

describe('qrFileName', () => {
  it('names the file after the address, keeping what is safe in a file name', () => {
    expect(qrFileName('ada@example.com')).toBe('invitation-ada@example.com.png')
    expect(qrFileName(' Ada.Lovelace+circles@Example.com ')).toBe(
      'invitation-ada.lovelace+circles@example.com.png',
    )
    expect(qrFileName('../../etc/passwd"@x.y')).toBe('invitation-etc-passwd-@x.y.png')
    expect(qrFileName('')).toBe('invitation-invitee.png')
  })
})

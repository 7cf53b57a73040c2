import { MESSAGES } from '@circles/shared'
import { fireEvent, screen, waitFor } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { callCount, json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { ExportData } from './export-data'

const KEY = 'GET /api/users/me/export'
const zip = () =>
  new Response(new Blob([new Uint8Array([0x50, 0x4b, 0x03, 0x04])], { type: 'application/zip' }), {
    status: 200,
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': 'attachment; filename="circles-data-2026-11-26.zip"',
    },
  })

/** The links the component clicked, with the name each asked the browser to save under. */
let saved: { href: string; download: string }[]
let createObjectURL: ReturnType<typeof vi.fn>
let revokeObjectURL: ReturnType<typeof vi.fn>

beforeEach(() => {
  startSession(validToken(), testUser)
  saved = []
  createObjectURL = vi.fn(() => 'blob:circles/export')
  revokeObjectURL = vi.fn()
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }))
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ href: this.href, download: this.download })
  })
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const render = (language: 'en' | 'de' = 'en') =>
  renderPages({ '/': () => <ExportData user={testUser} /> }, '/', { language, namespaces: ['profile'] })

describe('Download my data', () => {
  it('explains what the download holds', async () => {
    await render()
    expect(await screen.findByRole('heading', { name: 'Download my data' })).toBeTruthy()
    expect(screen.getByText('The items you created or hold, with their pictures')).toBeTruthy()
    expect(screen.getByText(/You can download it 3 times an hour/)).toBeTruthy()
  })

  it('fetches the file with the session and saves it under the server’s name', async () => {
    const fetchMock = mockApi({ [KEY]: () => zip() })
    await render()
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }))
    expect(await screen.findByText('Your download has started: circles-data-2026-11-26.zip')).toBeTruthy()
    const [, init] = fetchMock.mock.calls[0]!
    expect((init!.headers as Record<string, string>).Authorization).toMatch(/^Bearer /)
    expect(saved).toEqual([{ href: 'blob:circles/export', download: 'circles-data-2026-11-26.zip' }])
    expect((createObjectURL.mock.calls[0]![0] as Blob).size).toBe(4)
    await waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:circles/export'))
    // The link was only there for the click.
    expect(document.querySelector('a[download]')).toBeNull()
  })

  it('shows the busy state while the file is prepared', async () => {
    let answer!: (response: Response) => void
    mockApi({ [KEY]: () => new Promise<Response>((resolve) => (answer = resolve)) })
    await render()
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }))
    const busy = await screen.findByRole('button', { name: /Preparing your download/ })
    expect((busy as HTMLButtonElement).disabled).toBe(true)
    answer(zip())
    expect(await screen.findByRole('button', { name: 'Download my data' })).toBeTruthy()
  })

  it('says why when the hour’s downloads are used up (429), in English and German', async () => {
    const refusal = () =>
      json(429, {
        message: MESSAGES.dataExportTooMany,
        code: 'RATE_LIMITED',
        key: 'dataExportTooMany',
        retryAfter: 3000,
      })
    mockApi({ [KEY]: refusal })
    const first = await render()
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You can download your data 3 times an hour. Please try again later.',
    )
    expect(saved).toEqual([])
    first.unmount()

    await render('de')
    fireEvent.click(await screen.findByRole('button', { name: 'Meine Daten herunterladen' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Du kannst deine Daten dreimal pro Stunde herunterladen. Bitte versuche es später noch einmal.',
    )
  })

  it('says so when the download fails without a reason', async () => {
    mockApi({ [KEY]: () => new Response('bad gateway', { status: 502 }) })
    await render()
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }))
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your data could not be downloaded. Please try again.',
    )
  })

  it('sends one request for a double press (issue 23)', async () => {
    let answer!: (response: Response) => void
    const fetchMock = mockApi({ [KEY]: () => new Promise<Response>((resolve) => (answer = resolve)) })
    await render()
    const button = await screen.findByRole('button', { name: 'Download my data' })
    fireEvent.click(button)
    fireEvent.click(button)
    await waitFor(() => expect(callCount(fetchMock, KEY)).toBe(1))
    answer(zip())
    await screen.findByText(/Your download has started/)
    expect(callCount(fetchMock, KEY)).toBe(1)
    expect(saved).toHaveLength(1)
  })
})

import { act, fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ScanButton } from '@/components/scan-button'
import { renderPages } from '@/test/render-pages'
import { ScanHost } from './scan-host'

// The QR reader (BarcodeDetector or zxing-wasm) is the browser's part, checked by e2e/tests/scan.spec.ts
// in Chromium; here it answers what each test says the camera sees.
const reads = vi.hoisted(() => ({ next: [] as Array<string | null>, calls: 0, failLoad: false }))
vi.mock('../lib/decoder', () => ({
  loadQrReader: () =>
    reads.failLoad
      ? Promise.reject(new Error('offline'))
      : Promise.resolve({
          read: () => {
            reads.calls++
            return Promise.resolve(reads.next.length > 1 ? reads.next.shift()! : (reads.next[0] ?? null))
          },
        }),
}))

function Page() {
  return (
    <main>
      <ScanButton />
      <ScanHost />
    </main>
  )
}

/** A camera that works (or fails with `error`), with a track that records stop(). */
function fakeCamera(error?: DOMException) {
  const track = { stop: vi.fn(), kind: 'video' }
  const stream = { getTracks: () => [track] } as unknown as MediaStream
  const getUserMedia = vi.fn(() => (error ? Promise.reject(error) : Promise.resolve(stream)))
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia, enumerateDevices: () => Promise.resolve([]) },
  })
  return { track, getUserMedia }
}

beforeEach(() => {
  reads.next = []
  reads.calls = 0
  reads.failLoad = false
  // A video that has frames (happy-dom plays nothing).
  Object.defineProperty(HTMLMediaElement.prototype, 'readyState', { configurable: true, get: () => 4 })
  Object.defineProperty(HTMLVideoElement.prototype, 'videoWidth', { configurable: true, get: () => 640 })
  Object.defineProperty(HTMLMediaElement.prototype, 'srcObject', { configurable: true, set: () => undefined })
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined)
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

async function openScanner() {
  const view = await renderPages({ '/items': Page }, '/items', { namespaces: ['scan', 'items'] })
  fireEvent.click(screen.getByRole('button', { name: 'Scan' }))
  // The dialog is its own chunk, imported on the first press.
  const dialog = await screen.findByRole('dialog', { name: 'Scan a code' }, { timeout: 5000 })
  return { ...view, dialog }
}

const origin = () => window.location.origin

describe('scan dialog (issue 27)', () => {
  it('opens the item a label of this app names, through /i/:code, and stops the camera', async () => {
    const camera = fakeCamera()
    reads.next = [null, `${origin()}/i/7k3m9qxr`]
    const { router } = await openScanner()
    // The page shown, not only the router's state (React renders the new route a moment later).
    expect((await screen.findByTestId('landed', {}, { timeout: 5000 })).textContent).toBe('/i/7K3M9QXR')
    expect(router.location.pathname).toBe('/i/7K3M9QXR')
    expect(camera.track.stop).toHaveBeenCalled()
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('opens the join page for an invitation', async () => {
    fakeCamera()
    const token = 'ab'.repeat(32)
    reads.next = [`${origin()}/join?token=${token}`]
    const { router } = await openScanner()
    await waitFor(() => expect(router.location.pathname).toBe('/join'), { timeout: 5000 })
    expect(router.location.search).toBe(`?token=${token}`)
  })

  it('says a foreign code is none of ours and keeps scanning', async () => {
    fakeCamera()
    reads.next = ['https://example.org/hello', 'https://example.org/hello', null]
    const { dialog, router } = await openScanner()
    expect(await within(dialog).findByText(/This is not a Circles code/)).toBeTruthy()
    const before = reads.calls
    await waitFor(() => expect(reads.calls).toBeGreaterThan(before + 1))
    expect(router.location.pathname).toBe('/items')
    expect(screen.getByRole('dialog', { name: 'Scan a code' })).toBeTruthy()
  })

  it("shows the photo dialog's message when the camera is denied, and reads a chosen photo instead", async () => {
    fakeCamera(new DOMException('no', 'NotAllowedError'))
    const bitmap = { close: vi.fn() }
    vi.stubGlobal(
      'createImageBitmap',
      vi.fn(() => Promise.resolve(bitmap)),
    )
    const { dialog, router } = await openScanner()
    expect((await within(dialog).findByRole('alert')).textContent).toMatch(/Camera access was denied/)
    const input = within(dialog).getByLabelText('Choose a photo of the code from this device')

    reads.next = [null]
    await act(async () => {
      fireEvent.change(input, { target: { files: [new File(['x'], 'label.jpg', { type: 'image/jpeg' })] } })
    })
    expect(await within(dialog).findByText(/No QR code was found in this photo/)).toBeTruthy()
    expect(bitmap.close).toHaveBeenCalled()

    reads.next = [`${origin()}/i/7K3M9QXR`]
    await act(async () => {
      fireEvent.change(input, { target: { files: [new File(['y'], 'label2.jpg', { type: 'image/jpeg' })] } })
    })
    await waitFor(() => expect(router.location.pathname).toBe('/i/7K3M9QXR'), { timeout: 5000 })
  })

  it('stops the camera when closed', async () => {
    const camera = fakeCamera()
    const { dialog } = await openScanner()
    await waitFor(() => expect(camera.getUserMedia).toHaveBeenCalled())
    await within(dialog).findByRole('button', { name: 'Choose a photo' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(camera.track.stop).toHaveBeenCalled()
  })

  it('says when the code reader cannot load, and loads it again on request', async () => {
    fakeCamera()
    reads.failLoad = true
    const { dialog } = await openScanner()
    expect(await within(dialog).findByText(/code reader could not be loaded/)).toBeTruthy()
    reads.failLoad = false
    reads.next = [`${origin()}/i/7K3M9QXR`]
    fireEvent.click(within(dialog).getAllByRole('button', { name: 'Try Again' })[0]!)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })
})

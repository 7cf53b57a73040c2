import { render, waitFor } from '@/test/testing-library'
import { beforeAll, afterEach, describe, expect, it, vi } from 'vitest'
import { initI18n } from '@/lib/i18n'
import { CameraDialog } from './camera-dialog'

beforeAll(async () => {
  const i18n = await initI18n('en')
  await i18n.loadNamespaces('items')
})
afterEach(() => vi.unstubAllGlobals())

/** A camera that answers only when the test says so, with a stream whose track records stop(). */
function slowCamera() {
  const track = { stop: vi.fn(), kind: 'video' }
  const stream = { getTracks: () => [track] } as unknown as MediaStream
  let answer: () => void = () => undefined
  const getUserMedia = vi.fn(() => new Promise<MediaStream>((resolve) => (answer = () => resolve(stream))))
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia, enumerateDevices: () => Promise.resolve([]) },
  })
  return { track, getUserMedia, answer: () => answer() }
}

describe('camera dialog (issue 23)', () => {
  it('stops a stream that arrives after the dialog was closed', async () => {
    const camera = slowCamera()
    const props = { onClose: vi.fn(), onConfirm: vi.fn() }
    const view = render(<CameraDialog open {...props} />)
    await waitFor(() => expect(camera.getUserMedia).toHaveBeenCalledTimes(1))
    view.rerender(<CameraDialog open={false} {...props} />)
    camera.answer()
    await waitFor(() => expect(camera.track.stop).toHaveBeenCalledTimes(1))
  })

  it('does not ask for the camera at all when closed during the start delay', async () => {
    const camera = slowCamera()
    const props = { onClose: vi.fn(), onConfirm: vi.fn() }
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    try {
      const view = render(<CameraDialog open {...props} />)
      view.rerender(<CameraDialog open={false} {...props} />)
      await vi.advanceTimersByTimeAsync(1000) // well past the 300 ms start delay (spec 001 §9)
      expect(camera.getUserMedia).not.toHaveBeenCalled()
    } finally {
      vi.useRealTimers()
    }
  })
})

// A camera that films a picture (issue 27, scanning): Chromium's fake capture device plays a Y4M file
// (`--use-file-for-fake-video-capture`), so a test films a real label's QR code. The Y4M is written
// here, in Node: a header, then frames of raw I420 (a full-size luma plane and two quarter-size chroma
// planes). No ffmpeg. Also QR codes of other content (zxing-wasm's writer, the same library the app's
// reader falls back to) and the Chromium to film them with.
import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { chromium, type Browser } from '@playwright/test'
import { PNG } from 'pngjs'
import { decidedConsentCookie, markNotAutomated } from './fixtures'

const WIDTH = 640
const HEIGHT = 480

/**
 * The picture (a PNG) in the middle of a white 640 × 480 frame, scaled (nearest pixel, so the QR code's
 * modules stay sharp) to fill most of it, as a phone held over a label; written as a two-frame Y4M.
 */
export async function writeY4m(png: Buffer, file: string): Promise<void> {
  const image = PNG.sync.read(png)
  const scale = Math.min((WIDTH * 0.9) / image.width, (HEIGHT * 0.9) / image.height)
  const w = Math.floor(image.width * scale)
  const h = Math.floor(image.height * scale)
  const left = Math.floor((WIDTH - w) / 2)
  const top = Math.floor((HEIGHT - h) / 2)
  const rgb = (x: number, y: number): [number, number, number] => {
    const sx = x - left
    const sy = y - top
    if (sx < 0 || sy < 0 || sx >= w || sy >= h) return [255, 255, 255]
    const i = (Math.floor(sy / scale) * image.width + Math.floor(sx / scale)) * 4
    const alpha = image.data[i + 3]! / 255
    const over = (c: number) => Math.round(c * alpha + 255 * (1 - alpha))
    return [over(image.data[i]!), over(image.data[i + 1]!), over(image.data[i + 2]!)]
  }
  // BT.601 full range, as C420jpeg says.
  const luma = Buffer.alloc(WIDTH * HEIGHT)
  const u = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2))
  const v = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2))
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const [r, g, b] = rgb(x, y)
      luma[y * WIDTH + x] = Math.round(0.299 * r + 0.587 * g + 0.114 * b)
      if (x % 2 === 0 && y % 2 === 0) {
        const c = (y / 2) * (WIDTH / 2) + x / 2
        u[c] = Math.max(0, Math.min(255, Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)))
        v[c] = Math.max(0, Math.min(255, Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)))
      }
    }
  }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, u, v])
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`)
  await writeFile(file, Buffer.concat([header, frame, frame]))
}

/** A PNG of a QR code holding `text`. */
export async function qrPng(text: string): Promise<Buffer> {
  const require = createRequire(import.meta.url)
  const { prepareZXingModule, writeBarcode } = await import('zxing-wasm/writer')
  const wasm = readFileSync(require.resolve('zxing-wasm/writer/zxing_writer.wasm'))
  prepareZXingModule({ overrides: { wasmBinary: wasm.buffer as ArrayBuffer }, fireImmediately: true })
  const written = await writeBarcode(text, { format: 'QRCode', scale: 8 })
  if (!written.image) throw new Error(written.error)
  return Buffer.from(await written.image.arrayBuffer())
}

/**
 * Chromium whose camera films `video` (a .y4m), permission granted without a prompt; or, with
 * `video: 'denied'`, a Chromium that refuses the camera as a person who says no.
 */
export function cameraBrowser(video: string | 'denied'): Promise<Browser> {
  const camera =
    video === 'denied'
      ? ['--use-fake-device-for-media-stream', '--deny-permission-prompts']
      : [
          '--use-fake-device-for-media-stream',
          '--use-fake-ui-for-media-stream',
          `--use-file-for-fake-video-capture=${video}`,
        ]
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', ...camera],
  })
}

/** A person at that browser: consent decided, as the fixture does for every page. */
export async function personAt(browser: Browser, baseURL: string, viewport = { width: 1280, height: 900 }) {
  const context = await browser.newContext({ baseURL, viewport, locale: 'en-US' })
  await context.addInitScript(markNotAutomated)
  await context.addCookies([decidedConsentCookie(baseURL)])
  return { context, page: await context.newPage() }
}

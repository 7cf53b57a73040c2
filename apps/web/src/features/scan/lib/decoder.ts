/**
 * Reads QR codes from video frames and pictures (issue 27): the browser's own `BarcodeDetector` where it
 * reads QR codes, else the `barcode-detector` ponyfill (zxing-wasm). Loaded with `import()` only when
 * the scan dialog opens; the .wasm file is part of our build (served from our origin, allowed by the
 * CSP's 'wasm-unsafe-eval'), never fetched from a CDN.
 */
export interface QrReader {
  /** The text of the first QR code in the picture, or null if there is none. */
  read(source: ImageBitmapSource): Promise<string | null>
}

interface DetectorLike {
  detect(source: ImageBitmapSource): Promise<ReadonlyArray<{ rawValue: string }>>
}
interface DetectorClass {
  new (options: { formats: string[] }): DetectorLike
  getSupportedFormats(): Promise<string[]>
}

async function nativeDetector(): Promise<DetectorLike | null> {
  const Native = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector
  if (!Native) return null
  try {
    const formats = await Native.getSupportedFormats()
    return formats.includes('qr_code') ? new Native({ formats: ['qr_code'] }) : null
  } catch {
    return null
  }
}

async function ponyfillDetector(): Promise<DetectorLike> {
  const [{ BarcodeDetector, prepareZXingModule }, { default: wasmUrl }] = await Promise.all([
    import('barcode-detector/ponyfill'),
    import('zxing-wasm/reader/zxing_reader.wasm?url'),
  ])
  prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
    },
  })
  return new BarcodeDetector({ formats: ['qr_code'] })
}

let reader: Promise<QrReader> | null = null

export function loadQrReader(): Promise<QrReader> {
  reader ??= (async () => {
    const detector = (await nativeDetector()) ?? (await ponyfillDetector())
    return {
      async read(source: ImageBitmapSource) {
        const found = await detector.detect(source)
        return found.find((code) => code.rawValue)?.rawValue ?? null
      },
    }
  })().catch((error: unknown) => {
    // A failed load (offline, say) is tried again at the next opening.
    reader = null
    throw error
  })
  return reader
}

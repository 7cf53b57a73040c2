import { LIMITS } from '@circles/shared'
// The library's own build, served from our origin: its worker imports it from here, never from a CDN.
import libURL from 'browser-image-compression/dist/browser-image-compression.js?url'

const MAX_SIZE_MB = LIMITS.maxImageBytes / (1024 * 1024)

/** Over 5 MB, or longer than 1920 px on a side (or not readable here: then let the library try). */
async function needsShrinking(file: File): Promise<boolean> {
  if (file.size > LIMITS.maxImageBytes) return true
  try {
    const bitmap = await createImageBitmap(file)
    const longer = Math.max(bitmap.width, bitmap.height)
    bitmap.close()
    return longer > LIMITS.maxImageSide
  } catch {
    return true
  }
}

/**
 * Shrinks a picture before it leaves the phone (spec 001 §5, §9): one over 5 MB or 1920 px becomes at
 * most 5 MB and 1920 px on the longer side, in at most 10 iterations, in a web worker; a smaller one
 * goes as it is (the server re-encodes every picture anyway). When shrinking fails the original goes,
 * and `fellBack` says so (the form shows 'Compression failed, using original file').
 */
export async function compressImage(file: File): Promise<{ file: File; fellBack: boolean }> {
  if (!(await needsShrinking(file))) return { file, fellBack: false }
  try {
    // Loaded only for a picture that needs it (most phone photos do, a screenshot may not), never with
    // the items page (docs/decisions/0055).
    const { default: imageCompression } = await import('browser-image-compression')
    const smaller = await imageCompression(file, {
      maxSizeMB: MAX_SIZE_MB,
      maxWidthOrHeight: LIMITS.maxImageSide,
      maxIteration: 10,
      useWebWorker: true,
      libURL,
    })
    // Typed as a File, it is a Blob with a name at run time: the upload wants a real File.
    return { file: new File([smaller], file.name, { type: smaller.type || file.type }), fellBack: false }
  } catch {
    return { file, fellBack: true }
  }
}

import { LIMITS } from '@circles/shared'
import imageCompression from 'browser-image-compression'
// The library's own build, served from our origin: its worker imports it from here, never from a CDN.
import libURL from 'browser-image-compression/dist/browser-image-compression.js?url'

const MAX_SIZE_MB = LIMITS.maxImageBytes / (1024 * 1024)

/**
 * Shrinks a picture before it leaves the phone (spec 001 §5, §9): at most 5 MB and 1920 px on the longer
 * side, at most 10 iterations, in a web worker. When that fails, the original goes as it is and
 * `compressed` says so (the form shows 'Compression failed, using original file').
 */
export async function compressImage(file: File): Promise<{ file: File; compressed: boolean }> {
  try {
    const smaller = await imageCompression(file, {
      maxSizeMB: MAX_SIZE_MB,
      maxWidthOrHeight: LIMITS.maxImageSide,
      maxIteration: 10,
      useWebWorker: true,
      libURL,
    })
    // Typed as a File, it is a Blob with a name at run time: the upload wants a real File.
    const named = new File([smaller], file.name, { type: smaller.type || file.type })
    return { file: named.size < file.size ? named : file, compressed: true }
  } catch {
    return { file, compressed: false }
  }
}

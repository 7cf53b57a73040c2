import { MESSAGES } from '@circles/shared'
import { translateServerError } from '@/lib/server-errors'

/** The picture types the server keeps (spec 001 §5); the file inputs offer these. */
export const PICTURE_TYPES = 'image/jpeg,image/png,image/webp'

const SIGNATURE_BYTES = 12

/**
 * True when the file's first bytes are a JPEG (FF D8 FF), PNG (89 50 4E 47 0D 0A 1A 0A) or WebP
 * ('RIFF', four bytes of size, 'WEBP') signature. The browser takes a file's type from its name, so a
 * text file renamed .jpg says image/jpeg; its bytes do not (docs/decisions/0028).
 */
export async function hasPictureSignature(file: Blob): Promise<boolean> {
  const bytes = new Uint8Array(await file.slice(0, SIGNATURE_BYTES).arrayBuffer())
  const startsWith = (signature: number[], at = 0) => signature.every((byte, i) => bytes[at + i] === byte)
  const ascii = (text: string) => Array.from(text, (char) => char.charCodeAt(0))
  return (
    startsWith([0xff, 0xd8, 0xff]) ||
    startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ||
    (startsWith(ascii('RIFF')) && startsWith(ascii('WEBP'), 8))
  )
}

/**
 * Why a picked file cannot be a picture (an item's, an avatar), in the user's language, or null: not an image at all,
 * an image of another type (HEIC, GIF…), an empty file, or a file whose bytes are no JPEG, PNG or WebP
 * whatever its name says. Said at the pick, so an item is never saved only for its picture to be
 * refused afterwards.
 */
export async function pictureProblem(file: File, notAnImage: string): Promise<string | null> {
  if (!file.type.startsWith('image/')) return notAnImage
  if (!PICTURE_TYPES.split(',').includes(file.type)) return translateServerError(MESSAGES.invalidImageType)
  if (file.size === 0) return translateServerError(MESSAGES.imageZeroSize)
  const readable = await hasPictureSignature(file).catch(() => false)
  if (!readable) return translateServerError(MESSAGES.invalidImageType)
  return null
}

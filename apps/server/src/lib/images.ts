import { randomBytes } from 'node:crypto'
import { AVATAR_PATH_PREFIX, IMAGE_PATH_PREFIX, LIMITS, MESSAGES } from '@circles/shared'
import type Sharp from 'sharp'
import { AppError } from './errors'

/** What sharp reads from the bytes decides the format; never the name or the declared type. */
const FORMATS = { jpeg: 'jpg', png: 'png', webp: 'webp' } as const
type Format = keyof typeof FORMATS

export interface ProcessedImage {
  /** The stored picture's id: 32 random hex characters. */
  id: string
  type: ImageType
  full: { name: string; bytes: Buffer; contentType: string }
  small: { name: string; bytes: Buffer; contentType: string }
}

/**
 * sharp (libvips), loaded at the first picture rather than at start (about 0.1 s of CPU and 8 MB that
 * a server without uploads never needs), with libvips' operation cache off: every upload is a new
 * input, so the cache never hits, yet it keeps up to 50 MB of decoded pictures (docs/decisions/0045).
 */
let sharpLoad: Promise<typeof Sharp> | undefined
const loadSharp = () =>
  (sharpLoad ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false)
    return sharp
  }))

const invalidType = () => new AppError('VALIDATION_ERROR', MESSAGES.invalidImageType)

/**
 * Re-encodes an uploaded picture: orientation applied, metadata (EXIF, GPS) dropped, longer side at
 * most 1920 px, in its own format; plus a small WebP rendition (longer side 480 px) for card grids.
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  const sharp = await loadSharp()
  const format = await formatOf(sharp, input)
  const id = randomBytes(16).toString('hex')
  const extension = FORMATS[format]
  try {
    // rotate() without arguments applies the EXIF orientation; sharp writes no metadata unless asked.
    const oriented = sharp(input, { failOn: 'error' }).rotate()
    const full = oriented.clone().resize({
      width: LIMITS.maxImageSide,
      height: LIMITS.maxImageSide,
      fit: 'inside',
      withoutEnlargement: true,
    })
    const encodedFull =
      format === 'jpeg'
        ? full.jpeg({ quality: 85, mozjpeg: true })
        : format === 'png'
          ? full.png({ compressionLevel: 9 })
          : full.webp({ quality: 85 })
    const small = oriented
      .clone()
      .resize({
        width: LIMITS.thumbnailSide,
        height: LIMITS.thumbnailSide,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: 75 })
    const [fullBytes, smallBytes] = await Promise.all([encodedFull.toBuffer(), small.toBuffer()])
    return {
      id,
      type: extension,
      full: { name: `${id}.${extension}`, bytes: fullBytes, contentType: `image/${format}` },
      small: { name: `${id}-small.webp`, bytes: smallBytes, contentType: 'image/webp' },
    }
  } catch {
    throw new AppError('VALIDATION_ERROR', MESSAGES.imageProcessingFailed)
  }
}

/** The upload's format as sharp reads it from the bytes: JPEG, PNG or WebP, else 400. */
async function formatOf(sharp: typeof Sharp, input: Buffer): Promise<Format> {
  if (input.length === 0) throw new AppError('VALIDATION_ERROR', MESSAGES.imageZeroSize)
  try {
    const meta = await sharp(input).metadata()
    if (!(meta.format in FORMATS)) throw invalidType()
    return meta.format as Format
  } catch (error) {
    if (error instanceof AppError) throw error
    throw invalidType()
  }
}

export interface ProcessedAvatar {
  /** The stored avatar's id: 32 random hex characters, new on every upload. */
  id: string
  name: string
  bytes: Buffer
  contentType: 'image/webp'
}

/**
 * An account's avatar (docs/decisions/0037): the same checks as an item's picture (type by content,
 * JPEG, PNG or WebP), orientation applied, then a square centre crop of 256 px as WebP; sharp writes
 * no metadata (EXIF, GPS, ICC) unless asked, so none survives.
 */
export async function processAvatar(input: Buffer): Promise<ProcessedAvatar> {
  const sharp = await loadSharp()
  await formatOf(sharp, input)
  const id = randomBytes(16).toString('hex')
  try {
    const bytes = await sharp(input, { failOn: 'error' })
      .rotate()
      .resize({ width: LIMITS.avatarSide, height: LIMITS.avatarSide, fit: 'cover', position: 'centre' })
      .webp({ quality: 80 })
      .toBuffer()
    return { id, name: avatarFileName(id), bytes, contentType: 'image/webp' }
  } catch {
    throw new AppError('VALIDATION_ERROR', MESSAGES.imageProcessingFailed)
  }
}

/** The stored file of an avatar: apart from the item pictures' names, so neither route serves the other. */
export function avatarFileName(avatarId: string): string {
  return `avatar-${avatarId}.webp`
}

/** Where the client fetches an avatar; null without one. */
export function avatarUrl(avatarId: string | null): string | null {
  return avatarId ? `${AVATAR_PATH_PREFIX}${avatarId}.webp` : null
}

export type ImageType = (typeof FORMATS)[Format]

/** The file names a stored picture has: full and small. */
export function storedNames(imageId: string, imageType: ImageType): [full: string, small: string] {
  return [`${imageId}.${imageType}`, `${imageId}-small.webp`]
}

/** Where the client fetches an item's picture and its small rendition. */
export function imageUrls(imageId: string | null, imageType: ImageType | null) {
  if (!imageId || !imageType) return { imageUrl: null, thumbnailUrl: null }
  const [full, small] = storedNames(imageId, imageType)
  return { imageUrl: `${IMAGE_PATH_PREFIX}${full}`, thumbnailUrl: `${IMAGE_PATH_PREFIX}${small}` }
}

/** The picture id in "/api/items/image/<file>", or in any path with "/uploads/<file>" (spec 001 §7). */
export function imageIdFromFile(file: string): string | null {
  const name = file.split('?')[0]!.split('/').pop() ?? ''
  return /^([0-9a-f]{32})(-small)?\.(jpg|png|webp)$/.exec(name)?.[1] ?? null
}

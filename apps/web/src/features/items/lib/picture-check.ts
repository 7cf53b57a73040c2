import { MESSAGES } from '@circles/shared'
import type { TFunction } from 'i18next'
import { translateServerError } from '@/lib/server-errors'

/** The picture types the server keeps (spec 001 §5); the file inputs offer these. */
export const PICTURE_TYPES = 'image/jpeg,image/png,image/webp'

/**
 * Why a picked file cannot be an item's picture, in the user's language, or null: not an image at all,
 * an image of another type (HEIC, GIF…) or an empty file. Said at the pick, so an item is never saved
 * only for its picture to be refused afterwards.
 */
export function pictureProblem(file: File, t: TFunction<'items'>): string | null {
  if (!file.type.startsWith('image/')) return t('upload.notAnImage')
  if (!PICTURE_TYPES.split(',').includes(file.type)) return translateServerError(MESSAGES.invalidImageType)
  if (file.size === 0) return translateServerError(MESSAGES.imageZeroSize)
  return null
}

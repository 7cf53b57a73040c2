import { type TUploadResponse, ZUploadResponse } from '@circles/shared'
import { uploadPicture, type UploadOptions } from '@/lib/upload-picture'

/** POST /items/:itemId/image (spec 001 §5): the item's picture, with progress (lib/upload-picture). */
export function uploadItemImage(
  itemId: string,
  file: File,
  options: UploadOptions,
): Promise<TUploadResponse> {
  return uploadPicture(`/items/${encodeURIComponent(itemId)}/image`, file, ZUploadResponse, options)
}

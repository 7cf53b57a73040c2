import { type TConditionPhoto, ZConditionPhoto } from '@circles/shared'
import { z } from 'zod/mini'
import { api } from '@/lib/api-client'
import { uploadPicture, type UploadOptions } from '@/lib/upload-picture'

/** POST /handovers/photos answers 201 with the stored photo (issue 28). */
export const ZConditionPhotoResponse = z.object({ photo: ZConditionPhoto })

/**
 * Uploads one condition photo (the item picture's pipeline: the browser shrinks it, the server strips
 * EXIF and GPS). It stays the uploader's, unattached, until a request or an answer names its id.
 */
export function uploadConditionPhoto(file: File, options: UploadOptions): Promise<TConditionPhoto> {
  return uploadPicture('/handovers/photos', file, ZConditionPhotoResponse, options).then((a) => a.photo)
}

/** DELETE /handovers/photos/:id: the × on a photo not sent yet. */
export function deleteConditionPhoto(id: string): Promise<unknown> {
  return api.delete(`/handovers/photos/${encodeURIComponent(id)}`)
}

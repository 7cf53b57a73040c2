import type {} from '@fastify/multipart'
import { LIMITS, MESSAGES } from '@circles/shared'
import type { FastifyRequest } from 'fastify'
import { AppError } from './errors'

const noFile = () => new AppError('VALIDATION_ERROR', MESSAGES.noFileToUpload)

/**
 * The one file of an upload, field `image`, read into memory up to 5 MB and no further: a larger body
 * is refused with 413 as soon as it passes the limit, before anything is stored.
 */
export async function readImage(request: FastifyRequest): Promise<Buffer> {
  if (!request.isMultipart()) throw noFile()
  try {
    const part = await request.file({ limits: { fileSize: LIMITS.maxImageBytes, files: 1, fields: 10 } })
    if (!part || part.fieldname !== 'image') throw noFile()
    return await part.toBuffer()
  } catch (error) {
    if (error instanceof AppError) throw error
    const code = (error as { code?: string }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_FILES_LIMIT') {
      throw new AppError('PAYLOAD_TOO_LARGE', MESSAGES.imageTooLarge)
    }
    // A cut-off or malformed multipart body: the client's mistake, never a 500.
    throw new AppError('BAD_REQUEST', MESSAGES.noFileToUpload)
  }
}

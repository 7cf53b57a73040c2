import { ZAvatarFileParams, ZAvatarResponse } from '@circles/shared'
import multipart from '@fastify/multipart'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { currentUser } from '../auth/auth.plugin'
import { readImage } from '../../lib/image-upload'
import type { AvatarsService } from './avatars.service'

/** Under /api/users: the signed-in person's avatar (PUT, DELETE) and serving avatars (GET). */
export function avatarsRoutes(avatars: AvatarsService) {
  return async (plain: FastifyInstance) => {
    await plain.register(multipart, { throwFileSizeLimit: true })
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['users']
    const security = [{ bearer: [] }]
    const onRequest = [app.authenticate]

    // The file part `image`, as an item's picture: at most 5 MB, JPEG, PNG or WebP by content.
    app.put(
      '/me/avatar',
      {
        onRequest,
        schema: { tags, security, consumes: ['multipart/form-data'], response: { 200: ZAvatarResponse } },
      },
      async (request) => avatars.upload(currentUser(request), await readImage(request)),
    )

    app.delete(
      '/me/avatar',
      { onRequest, schema: { tags, security, response: { 200: ZAvatarResponse } } },
      (request) => avatars.remove(currentUser(request)),
    )

    app.get(
      '/avatars/:file',
      { onRequest, schema: { tags, security, params: ZAvatarFileParams } },
      async (request, reply) => {
        const file = await avatars.file(currentUser(request), request.params.file)
        // A new upload gets a new random name: the name is a strong validator (as items' pictures).
        const etag = `"${request.params.file}"`
        reply.header('etag', etag)
        if (request.headers['if-none-match'] === etag) return reply.status(304).send()
        return reply.type(file.contentType).send(file.bytes)
      },
    )
  }
}

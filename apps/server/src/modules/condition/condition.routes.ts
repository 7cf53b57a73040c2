import { ZConditionPhoto, ZConditionPhotoFileParams, ZConditionPhotoIdParams } from '@circles/shared'
import multipart from '@fastify/multipart'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod/mini'
import { readImage } from '../../lib/image-upload'
import { currentUser } from '../auth/auth.plugin'
import type { ConditionService } from './condition.service'

/** Issue 28: condition photos, uploaded before the request or answer they go with (under /api/handovers). */
export function conditionRoutes(condition: ConditionService) {
  return async (plain: FastifyInstance) => {
    await plain.register(multipart, { throwFileSizeLimit: true })
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['handovers']
    const security = [{ bearer: [] }]
    const onRequest = [app.authenticate]

    app.post(
      '/photos',
      {
        onRequest,
        schema: {
          tags,
          security,
          consumes: ['multipart/form-data'],
          response: { 201: z.object({ photo: ZConditionPhoto }) },
        },
      },
      async (request, reply) => {
        const photo = await condition.upload(currentUser(request), await readImage(request))
        return reply.status(201).send({ photo })
      },
    )

    app.delete(
      '/photos/:id',
      { onRequest, schema: { tags, security, params: ZConditionPhotoIdParams } },
      async (request, reply) => {
        await condition.remove(currentUser(request), request.params.id)
        return reply.status(204).send()
      },
    )

    app.get(
      '/photos/:file',
      { onRequest, schema: { tags, security, params: ZConditionPhotoFileParams } },
      async (request, reply) => {
        const file = await condition.file(currentUser(request), request.params.file)
        // Random names, never reused: the name is a strong validator (as for item pictures).
        const etag = `"${request.params.file}"`
        reply.header('etag', etag)
        if (request.headers['if-none-match'] === etag) return reply.status(304).send()
        return reply.type(file.contentType).send(file.bytes)
      },
    )
  }
}

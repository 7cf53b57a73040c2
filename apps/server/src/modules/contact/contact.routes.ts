import { ZContactRequest, ZMessageResponse } from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { createContactService } from './contact.service'

export function contactRoutes(contact: ReturnType<typeof createContactService>) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    app.post(
      '/contact',
      { schema: { tags: ['contact'], body: ZContactRequest, response: { 201: ZMessageResponse } } },
      async (request, reply) =>
        reply.status(201).send(await contact.sendContactMessage(request.body, request.ip)),
    )
  }
}

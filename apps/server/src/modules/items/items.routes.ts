import {
  MESSAGES,
  ZCircleIdParams,
  ZCreateItemRequest,
  ZImageFileParams,
  ZItemCodeParams,
  ZItemIdParams,
  ZItemImageParams,
  ZItemListResponse,
  ZItemResponse,
  ZItemSearchQuery,
  ZItemSearchResponse,
  ZMessageResponse,
  ZOwnershipStatusResponse,
  ZUpdateItemRequest,
  ZUploadResponse,
} from '@circles/shared'
import multipart from '@fastify/multipart'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { readImage } from '../../lib/image-upload'
import { currentUser } from '../auth/auth.plugin'
import type { ItemsService } from './items.service'

/** Spec 001 §7 "Items". */
export function itemsRoutes(items: ItemsService) {
  return async (plain: FastifyInstance) => {
    await plain.register(multipart, { throwFileSizeLimit: true })
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['items']
    const security = [{ bearer: [] }]
    const onRequest = [app.authenticate]
    const listed = { onRequest, schema: { tags, security, response: { 200: ZItemListResponse } } }

    app.get('/my-items', listed, async (request) => ({ items: await items.listMine(currentUser(request)) }))
    const searched = {
      onRequest,
      schema: { tags, security, querystring: ZItemSearchQuery, response: { 200: ZItemSearchResponse } },
    }
    // Without a query both answer as they always did (every item, newest first), plus `total`.
    app.get('/', searched, (request) => items.search(currentUser(request), request.query))

    app.get(
      '/circle/:id',
      { ...searched, schema: { ...searched.schema, params: ZCircleIdParams } },
      async (request) => {
        const user = currentUser(request)
        if (Object.keys(request.query).length === 0) {
          // The plain list, on its prepared statement (the circle page asks on every view).
          const list = await items.listCircle(user, request.params.id)
          return { items: list, total: list.length }
        }
        return items.search(user, request.query, request.params.id)
      },
    )

    app.get(
      '/image/:file',
      { onRequest, schema: { tags, security, params: ZImageFileParams } },
      async (request, reply) => {
        const file = await items.image(currentUser(request), request.params.file)
        // Stored names are random and never reused: the name is a strong validator. A members-only
        // picture is not stored by the browser (Cache-Control: no-store, as every API answer); the web
        // app keeps it in memory while it shows it.
        const etag = `"${request.params.file}"`
        reply.header('etag', etag)
        if (request.headers['if-none-match'] === etag) return reply.status(304).send()
        return reply.type(file.contentType).send(file.bytes)
      },
    )

    // Issue 27: a label's code (`/i/<code>` in the web app) to its item, for members only.
    app.get(
      '/by-code/:code',
      { onRequest, schema: { tags, security, params: ZItemCodeParams, response: { 200: ZItemResponse } } },
      async (request) => ({ item: await items.getByCode(currentUser(request), request.params.code) }),
    )

    app.get(
      '/:id',
      { onRequest, schema: { tags, security, params: ZItemIdParams, response: { 200: ZItemResponse } } },
      async (request) => ({ item: await items.get(currentUser(request), request.params.id) }),
    )

    app.get(
      '/:id/ownership-status',
      {
        onRequest,
        schema: { tags, security, params: ZItemIdParams, response: { 200: ZOwnershipStatusResponse } },
      },
      (request) => items.ownershipStatus(currentUser(request), request.params.id),
    )

    app.post(
      '/',
      { onRequest, schema: { tags, security, body: ZCreateItemRequest, response: { 201: ZItemResponse } } },
      async (request, reply) => {
        const item = await items.create(currentUser(request), request.body)
        return reply.status(201).send({ item, message: MESSAGES.itemCreated })
      },
    )

    app.put(
      '/:id',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZItemIdParams,
          body: ZUpdateItemRequest,
          response: { 200: ZItemResponse },
        },
      },
      async (request) => ({
        item: await items.update(currentUser(request), request.params.id, request.body),
        message: MESSAGES.itemUpdated,
      }),
    )

    app.delete(
      '/:id',
      { onRequest, schema: { tags, security, params: ZItemIdParams, response: { 200: ZMessageResponse } } },
      async (request) => {
        await items.remove(currentUser(request), request.params.id)
        return { message: MESSAGES.itemDeleted }
      },
    )

    app.post(
      '/:itemId/image',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZItemImageParams,
          consumes: ['multipart/form-data'],
          response: { 200: ZUploadResponse },
        },
      },
      async (request) =>
        items.uploadImage(currentUser(request), request.params.itemId, await readImage(request)),
    )
  }
}

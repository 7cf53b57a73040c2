import { Readable } from 'node:stream'
import {
  ZBlockCircleParams,
  ZCheckpointResponse,
  ZConsistencyProofResponse,
  ZConsistencyQuery,
  ZInclusionProofResponse,
  ZInclusionBatchQuery,
  ZInclusionBatchResponse,
  ZInclusionQuery,
  ZLedgerCircleParams,
  ZLedgerKeysResponse,
  ZBlockIdParams,
  ZBlockItemParams,
  ZBlockListResponse,
  ZBlockResponse,
  ZVerificationResult,
} from '@circles/shared'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod/mini'
import { currentUser } from '../auth/auth.plugin'
import type { LedgerService } from './ledger.service'

/** Spec 001 §7 "Ledger": members read and verify their circles' chains. */
export function ledgerRoutes(ledger: LedgerService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['ledger']
    const security = [{ bearer: [] }]
    const onRequest = [app.authenticate]
    const listed = { tags, security, response: { 200: ZBlockListResponse } }

    app.get('/', { onRequest, schema: listed }, async (request) => ({
      blocks: await ledger.list(currentUser(request)),
    }))
    app.get(
      '/verify/:circleId',
      {
        onRequest,
        schema: { tags, security, params: ZBlockCircleParams, response: { 200: ZVerificationResult } },
      },
      async (request) => ledger.verify(currentUser(request), request.params.circleId),
    )
    app.get(
      '/item/:itemId',
      { onRequest, schema: { ...listed, params: ZBlockItemParams } },
      async (request) => ledger.listItem(currentUser(request), request.params.itemId),
    )
    app.get(
      '/circle/:circleId',
      { onRequest, schema: { ...listed, params: ZBlockCircleParams } },
      async (request) => ledger.listCircle(currentUser(request), request.params.circleId),
    )
    app.get(
      '/:id',
      { onRequest, schema: { tags, security, params: ZBlockIdParams, response: { 200: ZBlockResponse } } },
      async (request) => ({ block: await ledger.get(currentUser(request), request.params.id) }),
    )
  }
}

/** Issue 14: /api/ledger, the verifiable log (keys for everyone; the rest for members). */
export function ledgerLogRoutes(ledger: LedgerService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['ledger']
    const security = [{ bearer: [] }]
    const onRequest = [app.authenticate]
    const params = ZLedgerCircleParams

    app.get('/keys', { schema: { tags, response: { 200: ZLedgerKeysResponse } } }, () => ledger.keys())
    app.get(
      '/:circleId/checkpoint',
      { onRequest, schema: { tags, security, params, response: { 200: ZCheckpointResponse } } },
      async (request) => ({
        checkpoint: await ledger.checkpoint(currentUser(request), request.params.circleId),
      }),
    )
    app.get(
      '/:circleId/proof/inclusion',
      {
        onRequest,
        schema: {
          tags,
          security,
          params,
          querystring: ZInclusionQuery,
          response: { 200: ZInclusionProofResponse },
        },
      },
      (request) =>
        ledger.inclusion(
          currentUser(request),
          request.params.circleId,
          request.query.index,
          request.query.size,
        ),
    )
    app.get(
      '/:circleId/proof/inclusions',
      {
        onRequest,
        schema: {
          tags,
          security,
          params,
          querystring: ZInclusionBatchQuery,
          response: { 200: ZInclusionBatchResponse },
        },
      },
      (request) =>
        ledger.inclusions(
          currentUser(request),
          request.params.circleId,
          request.query.indexes,
          request.query.size,
        ),
    )
    app.get(
      '/:circleId/proof/consistency',
      {
        onRequest,
        schema: {
          tags,
          security,
          params,
          querystring: ZConsistencyQuery,
          response: { 200: ZConsistencyProofResponse },
        },
      },
      (request) =>
        ledger.consistency(
          currentUser(request),
          request.params.circleId,
          request.query.from,
          request.query.to,
        ),
    )
    // Issue 29 (C2SP tlog-tiles): the tree as tiles, and the entries as bundles. A tile's bytes never
    // change for its path, so the browser keeps it (privately: members only), unlike every other API answer.
    const tileSchema = { tags, security, params: z.object({ ...params.shape, '*': z.string() }) }
    const immutable = (reply: FastifyReply, bytes: Buffer) =>
      reply
        .type('application/octet-stream')
        .header('cache-control', 'private, max-age=31536000, immutable')
        .send(bytes)
    app.get('/:circleId/tile/entries/*', { onRequest, schema: tileSchema }, async (request, reply) => {
      const { circleId, '*': rest } = request.params
      const bundle = await ledger.entryBundle(currentUser(request), circleId, `tile/entries/${rest}`)
      return immutable(reply, bundle.bytes)
    })
    app.get('/:circleId/tile/*', { onRequest, schema: tileSchema }, async (request, reply) => {
      const { circleId, '*': rest } = request.params
      const tile = await ledger.tile(currentUser(request), circleId, `tile/${rest}`)
      return immutable(reply, tile.bytes)
    })
    app.get(
      '/:circleId/export',
      { onRequest, schema: { tags, security, params } },
      async (request, reply) => {
        const lines = ledger.exportLog(currentUser(request), request.params.circleId)
        // The access check runs before the first byte, so a refusal is still a JSON error.
        const first = await lines.next()
        const stream = Readable.from(
          (async function* () {
            if (!first.done) yield first.value
            yield* lines
          })(),
        )
        return reply
          .type('application/x-ndjson; charset=utf-8')
          .header('content-disposition', `attachment; filename="circle-${request.params.circleId}.jsonl"`)
          .send(stream)
      },
    )
  }
}

import {
  ZCheckpointResponse,
  ZCircleWitnessesResponse,
  ZCosignatureRequest,
  ZLedgerCircleParams,
  ZWitnessDeviceParams,
  ZWitnessKeyListResponse,
  ZWitnessKeyRequest,
  ZWitnessKeyResponse,
} from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { currentUser } from '../auth/auth.plugin'
import type { WitnessService } from './witness.service'

/**
 * Issue 29 (docs/decisions/0059), under /api/ledger: this account's devices' witness keys (any verified
 * account), the witness keys of a circle's members and a member's cosignature on its checkpoint
 * (members only; others the 404 of a foreign circle).
 */
export function witnessRoutes(witness: WitnessService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['ledger']
    const security = [{ bearer: [] }]
    const onRequest = [app.authenticate]
    const keyList = { 200: ZWitnessKeyListResponse }

    app.get('/witness-keys', { onRequest, schema: { tags, security, response: keyList } }, (request) =>
      witness.listKeys(currentUser(request)),
    )
    app.post(
      '/witness-keys',
      {
        onRequest,
        schema: { tags, security, body: ZWitnessKeyRequest, response: { 200: ZWitnessKeyResponse } },
      },
      (request) => witness.registerKey(currentUser(request), request.body, request.headers['user-agent']),
    )
    app.delete(
      '/witness-keys/:deviceId',
      { onRequest, schema: { tags, security, params: ZWitnessDeviceParams, response: keyList } },
      (request) => witness.removeKey(currentUser(request), request.params.deviceId),
    )
    app.get(
      '/:circleId/witnesses',
      {
        onRequest,
        schema: { tags, security, params: ZLedgerCircleParams, response: { 200: ZCircleWitnessesResponse } },
      },
      (request) => witness.circleWitnesses(currentUser(request), request.params.circleId),
    )
    app.post(
      '/:circleId/cosignatures',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZLedgerCircleParams,
          body: ZCosignatureRequest,
          response: { 200: ZCheckpointResponse },
        },
      },
      (request) => witness.submitCosignature(currentUser(request), request.params.circleId, request.body),
    )
  }
}

import {
  MESSAGES,
  ZCredentialIdParams,
  ZCredentialListResponse,
  ZLoginOptionsRequest,
  ZLoginOptionsResponse,
  ZLoginResponse,
  ZLoginVerifyRequest,
  ZMessageResponse,
  ZRegistrationOptions,
  ZRegistrationVerifyRequest,
  ZRegistrationVerifyResponse,
  ZReauthOptionsResponse,
  ZRenamePasskeyRequest,
  ZRenamePasskeyResponse,
} from '@circles/shared'
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { currentUser } from '../auth/auth.plugin'
import type { WebauthnService } from './webauthn.service'

/** Spec 000 §7 and 001 §7: /api/webauthn. */
export function webauthnRoutes(webauthn: WebauthnService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['passkeys']
    const security = [{ bearer: [] }]
    const onRequest = [app.authenticate]

    app.get(
      '/register/options',
      { onRequest, schema: { tags, security, response: { 200: ZRegistrationOptions } } },
      async (request) => webauthn.registrationOptions(currentUser(request)),
    )
    app.post(
      '/register/verify',
      {
        onRequest,
        schema: {
          tags,
          security,
          body: ZRegistrationVerifyRequest,
          response: { 200: ZRegistrationVerifyResponse },
        },
      },
      async (request) => ({
        verified: true as const,
        credential: await webauthn.registerVerify(
          currentUser(request),
          request.body.credential as unknown as RegistrationResponseJSON,
          request.headers['user-agent'],
        ),
        message: MESSAGES.passkeyRegistered,
      }),
    )
    app.post(
      '/login/options',
      { schema: { tags, body: ZLoginOptionsRequest, response: { 200: ZLoginOptionsResponse } } },
      async (request) => webauthn.loginOptions(request.body.email),
    )
    app.post(
      '/login/verify',
      { schema: { tags, body: ZLoginVerifyRequest, response: { 200: ZLoginResponse } } },
      async (request) =>
        webauthn.loginVerify(
          request.body.credential as unknown as AuthenticationResponseJSON,
          request.body.userId,
          request.ip,
        ),
    )
    // Issue 24: a fresh assertion of the signed-in person, e.g. to confirm deleting the account.
    app.post(
      '/reauth/options',
      { onRequest, schema: { tags, security, response: { 200: ZReauthOptionsResponse } } },
      async (request) => webauthn.reauthOptions(currentUser(request)),
    )
    app.get(
      '/credentials',
      { onRequest, schema: { tags, security, response: { 200: ZCredentialListResponse } } },
      async (request) => ({ credentials: await webauthn.listCredentials(currentUser(request)) }),
    )
    app.patch(
      '/credentials/:id',
      {
        onRequest,
        schema: {
          tags,
          security,
          params: ZCredentialIdParams,
          body: ZRenamePasskeyRequest,
          response: { 200: ZRenamePasskeyResponse },
        },
      },
      async (request) => ({
        credential: await webauthn.renameCredential(
          currentUser(request),
          request.params.id,
          request.body.name,
        ),
        message: MESSAGES.passkeyRenamed,
      }),
    )
    app.delete(
      '/credentials/:id',
      {
        onRequest,
        schema: { tags, security, params: ZCredentialIdParams, response: { 200: ZMessageResponse } },
      },
      async (request) => {
        await webauthn.deleteCredential(currentUser(request), request.params.id)
        return { message: MESSAGES.passkeyDeleted }
      },
    )
  }
}

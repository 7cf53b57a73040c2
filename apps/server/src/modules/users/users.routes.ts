import {
  type Language,
  ZEmailRequest,
  ZLoginRequest,
  ZLoginResponse,
  ZMessageResponse,
  ZRegisterRequest,
  ZRegisterResponse,
  ZResetPasswordRequest,
  ZStatusResponse,
  ZTokenParams,
  ZNoticePreferencesUpdate,
  ZTimeZoneRequest,
  ZTimeZoneResponse,
  ZNoticePreferencesResponse,
  ZUnsubscribeQuery,
  ZUnsubscribeRequest,
  ZUpdateMeRequest,
  ZUserIdParams,
  ZUserResponse,
  ZVerifyEmailResponse,
  ZVerifyResetTokenResponse,
} from '@circles/shared'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { currentUser } from '../auth/auth.plugin'
import type { NoticesService } from './notices.service'
import type { AccountsService } from './accounts.service'
import type { createPasswordResetService } from './password-reset.service'
import type { createVerificationService } from './verification.service'

interface Services {
  accounts: AccountsService
  verification: ReturnType<typeof createVerificationService>
  passwordReset: ReturnType<typeof createPasswordResetService>
  notices: NoticesService
}

/** The language a new account's emails are written in, when the form did not say. */
function preferredLanguage(request: FastifyRequest): Language {
  return /^\s*de\b/i.test(request.headers['accept-language'] ?? '') ? 'de' : 'en'
}

export function usersRoutes({ accounts, verification, passwordReset, notices }: Services) {
  return async (plain: FastifyInstance) => {
    // RFC 8058: a mail client's one-click unsubscribe posts 'List-Unsubscribe=One-Click' as a form;
    // the token is in the URL, so the form body carries nothing we read.
    plain.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, _body, done) => done(null, undefined),
    )
    const app = plain.withTypeProvider<ZodTypeProvider>()
    const tags = ['users']
    const secured = { onRequest: [app.authenticate], schema: { security: [{ bearer: [] }] } }

    app.post(
      '/register',
      { schema: { tags, body: ZRegisterRequest, response: { 201: ZRegisterResponse } } },
      async (request, reply) =>
        reply.status(201).send(await accounts.register(request.body, preferredLanguage(request), request.ip)),
    )

    app.post(
      '/login',
      { schema: { tags, body: ZLoginRequest, response: { 200: ZLoginResponse } } },
      (request) => accounts.login(request.body, request.ip),
    )

    app.get(
      '/status/:id',
      {
        ...secured,
        schema: { ...secured.schema, tags, params: ZUserIdParams, response: { 200: ZStatusResponse } },
      },
      (request) => accounts.getStatus(currentUser(request), request.params.id),
    )

    app.get(
      '/me',
      { ...secured, schema: { ...secured.schema, tags, response: { 200: ZUserResponse } } },
      async (request) => ({
        user: currentUser(request),
      }),
    )

    app.put(
      '/me',
      {
        ...secured,
        schema: { ...secured.schema, tags, body: ZUpdateMeRequest, response: { 200: ZUserResponse } },
      },
      async (request) => ({ user: await accounts.updateMe(currentUser(request), request.body) }),
    )

    app.get(
      '/me/notifications',
      { ...secured, schema: { ...secured.schema, tags, response: { 200: ZNoticePreferencesResponse } } },
      async (request) => ({ notices: await accounts.notices(currentUser(request)) }),
    )

    app.put(
      '/me/notifications',
      {
        ...secured,
        schema: {
          ...secured.schema,
          tags,
          body: ZNoticePreferencesUpdate,
          response: { 200: ZNoticePreferencesResponse },
        },
      },
      async (request) => ({ notices: await accounts.updateNotices(currentUser(request), request.body) }),
    )

    // Issue 26: the browser reports its time zone when it differs from the stored one.
    app.get(
      '/me/time-zone',
      { ...secured, schema: { ...secured.schema, tags, response: { 200: ZTimeZoneResponse } } },
      (request) => accounts.timeZoneOf(currentUser(request)),
    )

    app.put(
      '/me/time-zone',
      {
        ...secured,
        schema: { ...secured.schema, tags, body: ZTimeZoneRequest, response: { 200: ZTimeZoneResponse } },
      },
      (request) => accounts.updateTimeZone(currentUser(request), request.body.timeZone),
    )

    // One click from the email's page or the mail client's List-Unsubscribe button; no session.
    app.post(
      '/unsubscribe',
      {
        schema: {
          tags,
          querystring: ZUnsubscribeQuery,
          body: ZUnsubscribeRequest,
          response: { 200: ZMessageResponse },
        },
      },
      (request) => notices.unsubscribe(request.body?.token ?? request.query.token ?? ''),
    )

    app.post(
      '/request-password-reset',
      { schema: { tags, body: ZEmailRequest, response: { 200: ZMessageResponse } } },
      (request) => passwordReset.requestReset(request.body, request.ip),
    )

    app.get(
      '/verify-reset-token/:token',
      { schema: { tags, params: ZTokenParams, response: { 200: ZVerifyResetTokenResponse } } },
      (request) => passwordReset.verifyResetToken(request.params.token),
    )

    app.post(
      '/reset-password',
      { schema: { tags, body: ZResetPasswordRequest, response: { 200: ZMessageResponse } } },
      (request) => passwordReset.resetPassword(request.body),
    )

    app.get(
      '/verify/:token',
      { schema: { tags, params: ZTokenParams, response: { 200: ZVerifyEmailResponse } } },
      (request) => verification.verifyEmail(request.params.token, request.ip),
    )

    app.post(
      '/resend-verification',
      { schema: { tags, body: ZEmailRequest, response: { 200: ZMessageResponse } } },
      (request) => verification.resendVerification(request.body, request.ip),
    )
  }
}

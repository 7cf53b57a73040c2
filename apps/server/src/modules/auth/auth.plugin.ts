import type { TUser } from '@circles/shared'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { unauthorized } from '../../lib/errors'

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate` on protected routes. */
    user: TUser | null
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest): Promise<void>
  }
}

/** The signed-in user of a protected route; throws 401 where `authenticate` did not run. */
export function currentUser(request: FastifyRequest): TUser {
  if (!request.user) throw unauthorized()
  return request.user
}

/** The bearer token a protected route was called with (`authenticate` checked it). */
export function bearerToken(request: FastifyRequest): string {
  const match = request.headers.authorization?.match(/^Bearer\s+(\S+)$/i)
  if (!match?.[1]) throw unauthorized()
  return match[1]
}

export const authPlugin = fp(
  async (app: FastifyInstance, opts: { authenticate(token: string): Promise<TUser> }) => {
    app.decorateRequest('user', null)
    app.decorate('authenticate', async (request: FastifyRequest) => {
      request.user = await opts.authenticate(bearerToken(request))
    })
  },
  { name: 'auth' },
)

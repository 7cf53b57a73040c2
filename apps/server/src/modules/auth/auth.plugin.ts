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

export const authPlugin = fp(
  async (app: FastifyInstance, opts: { authenticate(token: string): Promise<TUser> }) => {
    app.decorateRequest('user', null)
    app.decorate('authenticate', async (request: FastifyRequest) => {
      const header = request.headers.authorization
      const match = header?.match(/^Bearer\s+(\S+)$/i)
      if (!match?.[1]) throw unauthorized()
      request.user = await opts.authenticate(match[1])
    })
  },
  { name: 'auth' },
)

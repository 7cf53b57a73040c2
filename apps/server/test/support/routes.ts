import type { RouteOptions } from 'fastify'
import type { z } from 'zod/mini'
import { type TestApp, createTestApp } from './test-app'

/** What a route declares: its zod schemas as the route file wrote them (undefined where it has none). */
export interface ApiRouteSchema {
  body?: z.ZodMiniType
  params?: z.ZodMiniType
  querystring?: z.ZodMiniType
  consumes?: string[]
}

/** One API route as the app itself registered it. */
export interface ApiRoute {
  method: string
  /** The pattern, e.g. `/api/circles/:id/users/:userId`. */
  url: string
  /** `METHOD /pattern`, the key of the tables the route tests keep. */
  key: string
  /** Whether `app.authenticate` runs on the route (the route's own declaration, not a test of it). */
  authenticated: boolean
  schema: ApiRouteSchema
}

/**
 * The real app with the list of its `/api` routes, taken from Fastify's onRoute hook as each route is
 * added: nothing hand-written, so a route added later shows up here. HEAD routes that Fastify adds for
 * every GET are left out (they answer as the GET does, without a body).
 */
export async function createTestAppWithRoutes(
  opts: Parameters<typeof createTestApp>[0] = {},
): Promise<{ t: TestApp; routes: ApiRoute[] }> {
  const seen: RouteOptions[] = []
  const t = await createTestApp({ ...opts, onRoute: (route) => seen.push(route) })
  return { t, routes: apiRoutes(seen) }
}

export function apiRoutes(seen: RouteOptions[]): ApiRoute[] {
  const routes: ApiRoute[] = []
  for (const route of seen) {
    if (!route.url.startsWith('/api/') && route.url !== '/api') continue
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    for (const method of methods) {
      if (method === 'HEAD') continue
      const onRequest = route.onRequest
      const hooks = onRequest === undefined ? [] : Array.isArray(onRequest) ? onRequest : [onRequest]
      const schema = (route.schema ?? {}) as ApiRouteSchema
      routes.push({
        method,
        url: route.url,
        key: `${method} ${route.url}`,
        authenticated: hooks.length > 0,
        schema: {
          body: schema.body,
          params: schema.params,
          querystring: schema.querystring,
          consumes: schema.consumes,
        },
      })
    }
  }
  // One entry per key: Fastify may announce a route once per trailing-slash variant.
  const byKey = new Map(routes.map((r) => [r.key, r]))
  return [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key))
}

/**
 * 'GET /api/items/:itemId/image/' → 'GET /api/items/:/image': parameter names and a trailing slash
 * dropped, the form a table of routes is compared in (`/api/circles` and `/api/circles/` are one route).
 */
export function routeKey(key: string): string {
  return key.replace(/:[^/]+/g, ':').replace(/(.)\/$/, '$1')
}

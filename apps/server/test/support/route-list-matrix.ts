import type { FastifyInstance } from 'fastify'

/**
 * Every route the app serves under /api, as 'METHOD /path', read from the app itself
 * (`printRoutes`, the router's own tree). Path parameters are normalised to ':' by `routeKey`, since
 * the tree merges sibling parameters (`:id|:itemId`); HEAD, which Fastify adds to every GET, is left
 * out. A trailing slash is dropped: `/api/circles` and `/api/circles/` are one route.
 */
export function apiRoutes(app: FastifyInstance): string[] {
  const found = new Set<string>()
  const stack: string[] = []
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = line.match(/^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/)
    if (!match) continue
    const depth = match[1]!.length / 4
    stack.length = depth
    stack.push(match[2]!)
    const path = stack.join('')
    if (!path.startsWith('/api/') || !match[3]) continue
    for (const method of match[3].split(', ')) {
      if (method !== 'HEAD') found.add(routeKey(`${method} ${path}`))
    }
  }
  return [...found].sort()
}

/** 'GET /api/items/:itemId/image/' → 'GET /api/items/:/image': the form both sides are compared in. */
export function routeKey(key: string): string {
  return key.replace(/:[^/]+/g, ':').replace(/(.)\/$/, '$1')
}

import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import { MESSAGES } from '@circles/shared'
import type { FastifyInstance } from 'fastify'

const apiNotFound = { message: MESSAGES.notFound, code: 'NOT_FOUND' }

/**
 * Serves the built SPA: hashed assets cached for a year, HTML never cached, and any other GET that
 * asks for a page answered with index.html so deep links load the app. Unknown /api paths stay JSON.
 */
export async function registerSpa(app: FastifyInstance, webDir: string | undefined) {
  const indexFile = webDir ? path.join(webDir, 'index.html') : undefined
  const indexHtml = indexFile && existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined
  if (webDir && indexHtml) {
    await app.register(fastifyStatic, {
      root: webDir,
      prefix: '/',
      wildcard: true,
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`)
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      },
    })
  } else {
    app.log.warn({ webDir }, 'web app not built: only the API is served (run `npm run build`)')
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/'
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      pathname !== '/api' &&
      !pathname.startsWith('/socket.io') &&
      // A missing /assets/x.js is a 404, not a page.
      !path.extname(pathname)
    if (!wantsPage || !indexHtml) return reply.status(404).send(apiNotFound)
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml)
  })
}

import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { currentUser } from '../auth/auth.plugin'
import type { ExportService } from './export.service'

/** `GET /api/users/me/export`: the signed-in person's data as a ZIP file (docs/decisions/0038). */
export function exportRoutes(exports: ExportService) {
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<ZodTypeProvider>()
    app.get(
      '/me/export',
      {
        onRequest: [app.authenticate],
        schema: {
          tags: ['users'],
          security: [{ bearer: [] }],
          summary: 'Download my data (GDPR Art. 20): a ZIP of circles-data.json, pictures/ and README.txt',
        },
      },
      async (request, reply) => {
        // Stops reading pictures when the client goes away before the end.
        const aborted = new AbortController()
        reply.raw.on('close', () => aborted.abort())
        // The limit and every read happen before the first byte, so a refusal is still a JSON error.
        const download = await exports.download(currentUser(request), aborted.signal)
        return reply
          .type('application/zip')
          .header('content-disposition', `attachment; filename="${download.fileName}"`)
          .send(download.stream)
      },
    )
  }
}

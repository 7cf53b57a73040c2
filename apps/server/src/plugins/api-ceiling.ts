import { MESSAGES } from '@circles/shared'
import type { FastifyInstance } from 'fastify'
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible'
import { rateLimited } from '../lib/errors'
import { API_CEILING, retryAfterSeconds } from '../lib/rate-limits'

/** Probes of load balancers and monitors are never limited. */
const UNLIMITED = new Set(['/health', '/ready'])

/**
 * A generous ceiling on API calls per client address, registered inside the `/api` scope: pages,
 * scripts, styles, fonts and the service worker's files are never counted (many people share one
 * address). The sensitive calls have their own, tighter limits in their services.
 */
export function registerApiCeiling(api: FastifyInstance, onRefusal: (limiter: string) => void = () => {}) {
  const limiter = new RateLimiterMemory({ keyPrefix: 'api', ...API_CEILING })
  api.addHook('onRequest', async (request) => {
    const path = request.routeOptions.url?.slice(api.prefix.length)
    if (path && UNLIMITED.has(path)) return
    try {
      // In this process's memory only, never stored: the address itself is the key (no hash per call).
      await limiter.consume(request.ip)
    } catch (refusal) {
      if (!(refusal instanceof RateLimiterRes)) throw refusal
      onRefusal('apiCeiling')
      throw rateLimited(MESSAGES.tooManyRequests, retryAfterSeconds(refusal))
    }
  })
}

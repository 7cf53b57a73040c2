import helmet from '@fastify/helmet'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../config'

/**
 * A strict Content-Security-Policy the SPA works under: only our own origin for scripts, fonts,
 * images and connections (socket.io included); inline styles only, for the toaster and React's
 * style attributes.
 */
export function contentSecurityPolicy(https: boolean) {
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    mediaSrc: ["'self'", 'blob:'],
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: https ? [] : null,
  }
}

export async function registerSecurity(app: FastifyInstance, config: Config) {
  const https = config.publicUrl.startsWith('https:')
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(https) },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
  })
}

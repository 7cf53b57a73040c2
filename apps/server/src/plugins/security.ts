import type { IncomingMessage, ServerResponse } from 'node:http'
import helmet from 'helmet'
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
    // 'wasm-unsafe-eval' lets the scan dialog compile its QR reader (zxing-wasm, served from our own
    // origin; issue 27, docs/decisions/0052). It allows WebAssembly only: no eval(), no inline script.
    scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    mediaSrc: ["'self'", 'blob:'],
    // blob: for the image-compression worker, which our own script builds and which imports the
    // library from our origin (docs/decisions/0015).
    workerSrc: ["'self'", 'blob:'],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: https ? [] : null,
  }
}

/**
 * The security headers every answer carries, as helmet computes them for our options. They depend on
 * the configuration only, so helmet runs once here, on a stand-in response, instead of parsing its
 * directives again for every request.
 */
export function securityHeaders(https: boolean): Record<string, string> {
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = String(value)
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()]
    },
  }
  let failure: unknown
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(https) },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
  })({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error
  })
  if (failure) throw failure
  return headers
}

/**
 * Whether an answer to this URL may be stored by the browser or a cache on the way: every API answer
 * is someone's data or depends on who asks (sessions, members' pictures, error answers to them
 * included), so none is; the OpenAPI documentation is public. The app's pages and files keep the
 * caching spa.ts gives them. One route sets its own: a ledger tile (issue 29), whose bytes never change
 * for its path, is kept privately by the member's browser.
 */
export function isNoStoreUrl(url: string): boolean {
  return (
    (url.startsWith('/api/') || url === '/api' || url.startsWith('/api?')) && !url.startsWith('/api/docs')
  )
}

export function registerSecurity(app: FastifyInstance, config: Config) {
  const headers = securityHeaders(config.publicUrl.startsWith('https:'))
  const apiHeaders = { ...headers, 'cache-control': 'no-store' }
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isNoStoreUrl(request.url) ? apiHeaders : headers)
    done()
  })
}

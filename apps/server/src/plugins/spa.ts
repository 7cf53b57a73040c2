import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import { CONSENT_COOKIE_NAME, hasCookie, LANGUAGES, type Language, MESSAGES } from '@circles/shared'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { errorBody } from '../lib/errors'
import { pickRequestLanguage } from '../lib/languages'
import { loadRoutePreloads } from '../lib/route-preloads'
import { loadScreenPages, type ScreenPagesOptions } from '../lib/screen-pages'

const apiNotFound = errorBody('NOT_FOUND', MESSAGES.notFound)

/** Written by apps/web/scripts/prerender.mjs where a static page shows the contact address. */
const CONTACT_EMAIL_PLACEHOLDER = '__CIRCLES_CONTACT_EMAIL__'

/** What the browser needs from the server's configuration; read by apps/web/src/lib/runtime-config.ts. */
export interface RuntimeConfig {
  contactEmail: string
  staging: boolean
}

function escapeAttribute(value: string) {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** No inline script (CSP): the settings travel in a meta tag of every HTML page we serve. */
export function injectRuntimeConfig(html: string, config: RuntimeConfig) {
  const meta = `<meta name="circles-config" content="${escapeAttribute(JSON.stringify(config))}">`
  return html.replace('</head>', `${meta}</head>`)
}

/** `/about/` and `/about` are one page; `/` stays `/`. */
function normalisePath(pathname: string) {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
}

/** A prerendered page in one language; `firstVisit` brings the consent dialog (apps/web/scripts/prerender.mjs). */
interface PrerenderedPage {
  page: string
  firstVisit?: string
}

function readPages(dir: string, config: RuntimeConfig): Map<string, string> {
  const pages = new Map<string, string>()
  if (!existsSync(dir)) return pages
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.html')) continue
    const route = file === 'index.html' ? '/' : `/${file.slice(0, -'.html'.length)}`
    const html = readFileSync(path.join(dir, file), 'utf8')
      // Static pages (no React to read the meta tag) carry a placeholder for the contact address.
      .replaceAll(CONTACT_EMAIL_PLACEHOLDER, escapeAttribute(config.contactEmail))
    pages.set(route, injectRuntimeConfig(html, config))
  }
  return pages
}

/**
 * Prerendered public pages, built by apps/web/scripts/prerender.mjs as prerender/<lang>/<page>.html
 * (`index.html` for `/`), some with a prerender/<lang>/first-visit/<page>.html variant; and the frames
 * of the signed-in screens, prerender/<lang>/screens/<screen>.html (docs/decisions/0065), which the app
 * draws over. Loaded once at start, with the runtime config already in them.
 */
function loadPrerendered(webDir: string, config: RuntimeConfig) {
  const pages = new Map<string, Partial<Record<Language, PrerenderedPage>>>()
  for (const language of LANGUAGES) {
    const dir = path.join(webDir, 'prerender', language)
    const firstVisits = readPages(path.join(dir, 'first-visit'), config)
    const screens = readPages(path.join(dir, 'screens'), config)
    for (const [route, page] of [...readPages(dir, config), ...screens]) {
      pages.set(route, { ...pages.get(route), [language]: { page, firstVisit: firstVisits.get(route) } })
    }
  }
  return pages
}

/** The pages are a few dozen strings built at start: their validators are computed once each. */
const pageTags = new Map<string, string>()

function pageTag(html: string) {
  let tag = pageTags.get(html)
  if (!tag) {
    tag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`
    pageTags.set(html, tag)
  }
  return tag
}

/** Pages revalidate on every visit: an unchanged one costs a 304. */
function sendPage(request: FastifyRequest, reply: FastifyReply, html: string) {
  const tag = pageTag(html)
  reply.header('cache-control', 'no-cache').header('etag', tag).type('text/html; charset=utf-8')
  if (request.headers['if-none-match'] === tag) return reply.status(304).send()
  return reply.send(html)
}

/**
 * Serves the built SPA: hashed assets cached for a year, HTML never cached. Public pages, and the
 * frames of the main signed-in screens, come prerendered in the visitor's language; any other page GET
 * gets index.html so deep links load the app. Unknown /api paths stay JSON.
 */
export async function registerSpa(
  app: FastifyInstance,
  webDir: string | undefined,
  config: RuntimeConfig,
  { authenticate }: Pick<ScreenPagesOptions, 'authenticate'>,
) {
  const indexFile = webDir ? path.join(webDir, 'index.html') : undefined
  const indexHtml =
    indexFile && existsSync(indexFile)
      ? injectRuntimeConfig(readFileSync(indexFile, 'utf8'), config)
      : undefined
  const prerendered = webDir && indexHtml ? loadPrerendered(webDir, config) : new Map<never, never>()
  const routePreloads = webDir ? loadRoutePreloads(webDir) : undefined
  /** index.html for a path, with the modulepreloads of its route's page; built once per route and language. */
  const indexPages = new Map<string, string>()
  function indexPage(pathname: string, language: Language) {
    const tags = routePreloads?.tags(pathname, language) ?? ''
    let html = indexPages.get(tags)
    if (html === undefined) {
      html = tags && indexHtml ? indexHtml.replace('</head>', `${tags}</head>`) : (indexHtml ?? '')
      indexPages.set(tags, html)
    }
    return html
  }

  const screenPage =
    webDir && indexHtml && routePreloads
      ? await loadScreenPages(app, webDir, {
          authenticate,
          pageScripts: routePreloads.scripts,
          finish: (html) => injectRuntimeConfig(html, config),
        })
      : undefined

  if (webDir && indexHtml) {
    await app.register(fastifyStatic, {
      root: webDir,
      prefix: '/',
      wildcard: true,
      // Only files come from disk. Pages (no extension) and HTML go through the handler below, which
      // picks the language and adds the runtime config.
      index: false,
      // apps/web/scripts/precompress.mjs writes `<file>.br` and `<file>.gz` at build time: sent as they
      // are to browsers that accept them (Content-Encoding, Vary: Accept-Encoding), so no answer from
      // disk is compressed per request; a file without them goes through @fastify/compress as before.
      preCompressed: true,
      allowedPath: (pathname) =>
        path.extname(pathname) !== '' &&
        !pathname.endsWith('.html') &&
        // The compressed copies only by their file's own name, never as raw bytes of their own.
        !/\.(br|gz)$/.test(pathname) &&
        !pathname.startsWith('/prerender/') &&
        !pathname.startsWith('/.vite/'),
      setHeaders(reply, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`)
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
      },
    })
  } else {
    app.log.warn({ webDir }, 'web app not built: only the API is served (run `npm run build`)')
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = normalisePath(request.url.split('?')[0] ?? '/')
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      pathname !== '/api' &&
      !pathname.startsWith('/socket.io') &&
      // A missing /assets/x.js is a 404, not a page.
      !path.extname(pathname)
    if (!wantsPage || !indexHtml) return reply.status(404).send(apiNotFound)
    const { cookie } = request.headers
    const language = pickRequestLanguage(cookie, request.headers['accept-language'])
    reply.header('vary', 'Cookie, Accept-Language')
    // A signed-in screen with its data, for this session only: never stored, anywhere (docs/decisions/0068).
    const screen = request.method === 'GET' ? await screenPage?.(request, pathname, language) : undefined
    if (screen)
      return reply.header('cache-control', 'private, no-store').type('text/html; charset=utf-8').send(screen)
    const page = prerendered.get(pathname)
    const variant = page?.[language] ?? page?.en
    // The app renders the page: its scripts, and those of the route's page in the language it will pick.
    if (!variant) return sendPage(request, reply, indexPage(pathname, language))
    // A visitor who has not chosen yet gets the cookie consent inside the page.
    const html = (!hasCookie(cookie, CONSENT_COOKIE_NAME) && variant.firstVisit) || variant.page
    return sendPage(request, reply, html)
  })
}

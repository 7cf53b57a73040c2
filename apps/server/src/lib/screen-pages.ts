import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { pathToFileURL } from 'node:url'
import { type Language, LANGUAGES, readCookie, SESSION_COOKIE_NAME, type TUser } from '@circles/shared'
import type { FastifyInstance, FastifyRequest } from 'fastify'

/** apps/web/src/entry-server.tsx, as the build leaves it in prerender/ssr/ (docs/decisions/0068). */
interface Renderer {
  warmUp?(): Promise<void>
  renderScreen(request: {
    url: string
    origin: string
    language: Language
    token: string
    user: TUser
    fetch: typeof fetch
  }): Promise<{ html: string; title: string; queries: unknown; parts?: string[] } | undefined>
}

/** The places in prerender/screen-template/<lang>.html that a rendered screen fills in. */
const SLOTS = {
  title: '__CIRCLES_TITLE__',
  pageScripts: '__CIRCLES_PAGE_SCRIPTS__',
  html: '<!--circles-screen-->',
  data: '<!--circles-screen-data-->',
}

/** Renders waiting for their turn beyond this get the page without data at once, as before. */
const MAX_WAITING = 4
/** A render that takes longer (a slow database, a machine under load) is not waited for: the page goes without its data. */
const RENDER_DEADLINE_MS = 3000
/** The server's clock may be ahead of the database's, whose times the events carry (lib/first-read.ts). */
const SINCE_MARGIN_MS = 2000

export interface ScreenPagesOptions {
  /** The session's user for a token; throws for a token that is no longer a session. */
  authenticate(token: string): Promise<TUser>
  /** The scripts of the page at a path, beyond the app's (lib/route-preloads.ts). */
  pageScripts(pathname: string, language: Language): string[]
  /** What every page the server sends gets (the runtime config). */
  finish(html: string): string
}

/** A rendered screen's page, or undefined: the request then gets the page it got before 0068. */
export type ScreenPage = (
  request: FastifyRequest,
  pathname: string,
  language: Language,
) => Promise<string | undefined>

function escapeHtml(value: string) {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/**
 * The signed-in screens rendered with their data on request (docs/decisions/0068): for a GET of a
 * screen's page whose request carries the session cookie, the app's own renderer (the build's
 * prerender/ssr/entry-server.js) renders the screen for that session, its API requests answered by this
 * server through `app.inject`: the same routes, access checks, rate limits (as the visitor's address)
 * and logs as the browser's own requests. The page carries the answers, so the app starts from them.
 * Undefined without a build that has the renderer.
 */
export async function loadScreenPages(
  app: FastifyInstance,
  webDir: string,
  options: ScreenPagesOptions,
): Promise<ScreenPage | undefined> {
  const rendererFile = path.join(webDir, 'prerender', 'ssr', 'entry-server.js')
  const templates = new Map<Language, string>()
  for (const language of LANGUAGES) {
    const file = path.join(webDir, 'prerender', 'screen-template', `${language}.html`)
    if (existsSync(file)) templates.set(language, options.finish(readFileSync(file, 'utf8')))
  }
  if (!existsSync(rendererFile) || templates.size !== LANGUAGES.length) return undefined
  const renderer = (await import(pathToFileURL(rendererFile).href)) as Renderer
  const exclusive = oneAtATime()
  // In line before any request: a first render would otherwise load the strings and every page's code.
  void exclusive(async () => renderer.warmUp?.()).catch((error: unknown) =>
    app.log.error({ err: error }, 'warming up the screen renderer failed'),
  )

  /** The server's answer to one of the screen's requests, as the browser's fetch would give it. */
  function answering(request: FastifyRequest, token: string): typeof fetch {
    return async (input, init) => {
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(init?.headers ?? {}))
        headers[name.toLowerCase()] = String(value)
      const answer = await app.inject({
        method: (init?.method ?? 'GET') as 'GET',
        url: String(input),
        headers: { ...headers, authorization: `Bearer ${token}` },
        remoteAddress: request.ip,
      })
      const answerHeaders = new Headers()
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined)
          answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : String(value))
      }
      const empty = answer.statusCode === 204 || answer.statusCode === 304
      return new Response(empty ? null : answer.rawPayload, {
        status: answer.statusCode,
        headers: answerHeaders,
      })
    }
  }

  return async (request, pathname, language) => {
    const token = readCookie(request.headers.cookie, SESSION_COOKIE_NAME)
    if (!token) return undefined
    let user: TUser
    try {
      user = await options.authenticate(token)
    } catch {
      // Expired, or ended by a password reset: the app finds out itself and signs out (cookie included).
      return undefined
    }
    const since = new Date(Date.now() - SINCE_MARGIN_MS).toISOString()
    const { url } = request
    const origin = `${request.protocol}://${request.host}`
    const rendering = exclusive(() =>
      renderer.renderScreen({ url, origin, language, token, user, fetch: answering(request, token) }),
    ).catch((error: unknown) => {
      request.log.error({ err: error }, 'rendering a screen failed: sent without its data')
      return undefined
    })
    const deadline = new AbortController()
    const screen = await Promise.race([
      rendering,
      delay(RENDER_DEADLINE_MS, undefined, { ref: false, signal: deadline.signal }).catch(() => undefined),
    ]).finally(() => deadline.abort())
    if (!screen) return undefined
    // No `<` in the JSON: nothing in it can end the script element or open a comment.
    const data = JSON.stringify({
      since,
      userId: user.id,
      queries: screen.queries,
      parts: screen.parts ?? [],
    }).replace(/</g, '\\u003c')
    const template = templates.get(language)!
    // Functions, not strings, as replacements: a `$&` in an item's name stays what it is.
    return template
      .replace(SLOTS.title, () => escapeHtml(screen.title || 'Circles'))
      .replace(SLOTS.pageScripts, () => options.pageScripts(pathname, language).join(' '))
      .replace(SLOTS.html, () => inert(screen.html))
      .replace(SLOTS.data, () => `<script type="application/json" id="circles-screen">${data}</script>`)
  }
}

/** A control's start tag as the renderer writes it: attribute values double-quoted, `"` in them escaped. */
const CONTROL_TAG = /<(button|input|select|textarea)((?:\s+[^\s"'=<>/]+(?:="[^"]*")?)*)(\s*\/?)>/g

/**
 * Until the app has hydrated the screen, none of its controls can do anything: a click would be lost, and
 * what someone typed would not be the app's (the items screen's search). Those the app shows enabled come
 * disabled and marked `data-inert`, as a frame's buttons (scripts/prerender.mjs keeps their look); the
 * app enables them as it hydrates each part (docs/decisions/0070). Those the app disables stay as they are.
 */
export function inert(html: string) {
  return html.replace(CONTROL_TAG, (tag, name: string, attributes: string, end: string) =>
    /\sdisabled(?:=|\s|$)/.test(attributes) ? tag : `<${name} disabled data-inert=""${attributes}${end}>`,
  )
}

/**
 * Runs tasks one after another (the renderer's state is global, as the browser's); undefined instead of
 * queueing when MAX_WAITING are already in line.
 */
function oneAtATime() {
  let last: Promise<unknown> = Promise.resolve()
  let inLine = 0
  return async <T>(task: () => Promise<T>): Promise<T | undefined> => {
    if (inLine >= MAX_WAITING) return undefined
    inLine++
    const turn = last.then(task)
    last = turn.catch(() => undefined)
    try {
      return await turn
    } finally {
      inLine--
    }
  }
}

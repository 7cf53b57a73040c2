import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { Language } from '@circles/shared'

/** One route of the web app and the scripts its page loads beyond index.html's, per language. */
interface RoutePreload {
  /** react-router's path: `/items/:itemId`, `/*`. */
  path: string
  scripts: Partial<Record<Language, string[]>>
}

/** How well a path segment matches a route segment: a fixed name beats a parameter beats the rest. */
const LITERAL = 3
const PARAMETER = 2
const SPLAT = 1

/**
 * The match of `pathname` against a route path, as one rank per segment (compared in order, as
 * react-router ranks routes), or undefined when it does not match.
 */
function match(route: string, pathname: string): number[] | undefined {
  const want = route.split('/').filter(Boolean)
  const have = pathname.split('/').filter(Boolean)
  const ranks: number[] = []
  for (const [index, segment] of want.entries()) {
    if (segment === '*') return [...ranks, SPLAT]
    const part = have[index]
    if (part === undefined) return undefined
    if (segment.startsWith(':')) ranks.push(PARAMETER)
    else if (segment === part) ranks.push(LITERAL)
    else return undefined
  }
  return have.length === want.length ? ranks : undefined
}

function better(a: number[], b: number[]): boolean {
  for (let index = 0; index < Math.max(a.length, b.length); index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0)
    if (difference !== 0) return difference > 0
  }
  return false
}

/**
 * The scripts a screen's own page needs (written by apps/web/scripts/prerender.mjs as
 * prerender/route-preloads.json, docs/decisions/0067): the index.html sent for a path of that route lists
 * them as modulepreloads, so they load beside the app's scripts, not after the app has run.
 */
export function loadRoutePreloads(webDir: string) {
  const file = path.join(webDir, 'prerender', 'route-preloads.json')
  const written: RoutePreload[] = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : []
  // The tags of each route and language, built once.
  const routes = written.map(({ path: route, scripts }) => ({
    path: route,
    scripts,
    tags: Object.fromEntries(
      Object.entries(scripts).map(([language, list]) => [
        language,
        list.map((script) => `<link rel="modulepreload" crossorigin href="${script}">`).join(''),
      ]),
    ) as Partial<Record<Language, string>>,
  }))

  /** The route `pathname` belongs to, as react-router would pick it; undefined for none. */
  function routeOf(pathname: string) {
    let best: { route: (typeof routes)[number]; ranks: number[] } | undefined
    for (const route of routes) {
      const ranks = match(route.path, pathname)
      if (ranks && (!best || better(ranks, best.ranks))) best = { route, ranks }
    }
    return best?.route
  }

  return {
    /** The `<link rel="modulepreload">` tags for `pathname` in `language` ('' for a path of no route). */
    tags: (pathname: string, language: Language): string => routeOf(pathname)?.tags[language] ?? '',
    /** The same scripts as a list, for a page that loads them itself (apps/web/src/load-app.ts). */
    scripts: (pathname: string, language: Language): string[] => routeOf(pathname)?.scripts[language] ?? [],
  }
}

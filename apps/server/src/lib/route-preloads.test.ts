import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadRoutePreloads } from './route-preloads'

function webDir(routes: unknown) {
  const dir = mkdtempSync(path.join(tmpdir(), 'circles-web-'))
  mkdirSync(path.join(dir, 'prerender'))
  writeFileSync(path.join(dir, 'prerender', 'route-preloads.json'), JSON.stringify(routes))
  return dir
}

const ROUTES = [
  { path: '/items', scripts: { en: ['/assets/items.js'], de: ['/assets/items.js', '/assets/de.js'] } },
  { path: '/items/:itemId', scripts: { en: ['/assets/item.js'] } },
  { path: '/items/:itemId/handover', scripts: { en: ['/assets/handover.js'] } },
  { path: '/circles/create', scripts: { en: ['/assets/create.js'] } },
  { path: '/circles/:id', scripts: { en: ['/assets/circle.js'] } },
  { path: '/*', scripts: { en: ['/assets/not-found.js'] } },
]

describe('route preloads', () => {
  const { tags } = loadRoutePreloads(webDir(ROUTES))
  const scripts = (pathname: string, language: 'en' | 'de' = 'en') =>
    [...tags(pathname, language).matchAll(/href="([^"]+)"/g)].map((m) => m[1])

  test('lists the scripts of the route a path belongs to, in the language asked for', () => {
    expect(tags('/items/abc', 'en')).toBe('<link rel="modulepreload" crossorigin href="/assets/item.js">')
    expect(scripts('/items', 'de')).toEqual(['/assets/items.js', '/assets/de.js'])
    expect(scripts('/items/abc/handover')).toEqual(['/assets/handover.js'])
  })

  test('a fixed segment wins over a parameter, any route over the catch-all', () => {
    expect(scripts('/circles/create')).toEqual(['/assets/create.js'])
    expect(scripts('/circles/abc')).toEqual(['/assets/circle.js'])
    expect(scripts('/nowhere/at/all')).toEqual(['/assets/not-found.js'])
  })

  test('nothing for a language without a list, or without a build', () => {
    expect(tags('/items/abc', 'de')).toBe('')
    const none = loadRoutePreloads(mkdtempSync(path.join(tmpdir(), 'circles-web-')))
    expect(none.tags('/items/abc', 'en')).toBe('')
    expect(none.scripts('/items/abc', 'en')).toEqual([])
  })

  test('the same scripts as a list', () => {
    const { scripts: list } = loadRoutePreloads(webDir(ROUTES))
    expect(list('/items', 'de')).toEqual(['/assets/items.js', '/assets/de.js'])
    expect(list('/nowhere/at/all', 'en')).toEqual(['/assets/not-found.js'])
  })
})

import { describe, expect, it } from 'vitest'
import { fromParam, safeAppPath, withFrom } from './return-path'

describe('safeAppPath', () => {
  it.each(['/circles/abc', '/items?x=1', '/items/1#top', '/circle/1/items'])('keeps %s', (path) => {
    expect(safeAppPath(path)).toBe(path)
  })

  it.each([
    'https://evil.example/',
    '//evil.example/x',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    'circles/abc',
    '/\tevil',
    '/items\n',
    '',
    null,
    undefined,
    `/${'a'.repeat(3000)}`,
  ])('refuses %j', (raw) => {
    expect(safeAppPath(raw)).toBeNull()
  })

  it('normalises dot segments without leaving the app', () => {
    expect(safeAppPath('/items/../circles/1')).toBe('/circles/1')
    // Resolves to the path `//evil.example`, which a browser would read as another host.
    expect(safeAppPath('/..//evil.example')).toBeNull()
  })
})

describe('withFrom and fromParam', () => {
  it('round-trip a path with its search', () => {
    const link = withFrom('/circle/1/items?add=1', '/items?page=2')
    expect(link).toBe('/circle/1/items?add=1&from=%2Fitems%3Fpage%3D2')
    expect(fromParam(link.slice(link.indexOf('?')))).toBe('/items?page=2')
  })

  it('refuses a foreign from', () => {
    expect(fromParam('?from=https%3A%2F%2Fevil.example')).toBeNull()
    expect(fromParam('?from=%2F%2Fevil.example')).toBeNull()
    expect(fromParam('')).toBeNull()
  })
})

import type { ModuleInfo } from 'rolldown'
import { describe, expect, it } from 'vitest'
import { appChunk } from './chunk-groups'

const SRC = '/repo/apps/web/src'

/** A module graph: each module's static imports (ids relative to src, or node_modules paths). */
function graph(imports: Record<string, string[]>) {
  const id = (name: string) => (name.startsWith('/repo/') ? name : `${SRC}/${name}`)
  const importers = new Map<string, string[]>()
  for (const [from, tos] of Object.entries(imports))
    for (const to of tos) importers.set(id(to), [...(importers.get(id(to)) ?? []), id(from)])
  const info = (module: string) =>
    ({
      id: module,
      importers: importers.get(module) ?? [],
      importedIds: (imports[module.replace(`${SRC}/`, '')] ?? []).map(id),
    }) as unknown as ModuleInfo
  const name = appChunk()
  return (module: string) => name(id(module), { getModuleInfo: info })
}

const chunkOf = graph({
  'app/main.tsx': ['app/shell.tsx', 'lib/pwa.ts'],
  'app/shell.tsx': [
    'components/button.tsx',
    '/repo/node_modules/preact/compat/dist/compat.mjs',
    '/repo/packages/shared/src/contract/items.ts',
  ],
  'hydrated-page-entry.ts': ['lib/pwa.ts'],
  'features/a/routes/a-page.tsx': ['components/card.tsx', 'components/qr.tsx', 'features/a/list.tsx'],
  'features/b/routes/b-page.tsx': ['components/card.tsx', 'components/qr.tsx', 'components/pair.tsx'],
  'features/c/routes/c-page.tsx': ['components/card.tsx', 'components/qr.tsx', 'components/pair.tsx'],
  'components/qr.tsx': ['/repo/node_modules/qrcode.react/index.js'],
  'features/pages/routes/about-page.tsx': ['components/legal.tsx'],
  'features/pages/routes/terms-page.tsx': ['components/legal.tsx'],
  'features/auth/routes/login-page.tsx': ['components/legal.tsx', 'components/card.tsx'],
})

describe('appChunk', () => {
  it('puts the contract the shell uses into a chunk of its own, evaluated apart', () => {
    expect(chunkOf('/repo/packages/shared/src/contract/items.ts')).toBe('contract')
  })

  it('puts the shell and what three pages share into app', () => {
    expect(chunkOf('app/shell.tsx')).toBe('app')
    expect(chunkOf('components/button.tsx')).toBe('app')
    expect(chunkOf('components/card.tsx')).toBe('app')
  })

  it('leaves a page, its own code and what only two pages share to their chunks', () => {
    expect(chunkOf('features/a/routes/a-page.tsx')).toBeNull()
    expect(chunkOf('features/a/list.tsx')).toBeNull()
    expect(chunkOf('components/pair.tsx')).toBeNull()
  })

  it('leaves to the visitors’ pages what only they share', () => {
    expect(chunkOf('components/legal.tsx')).toBeNull()
  })

  it('keeps out code that brings a library of its own, and the public pages’ entry’s modules', () => {
    expect(chunkOf('components/qr.tsx')).toBeNull()
    expect(chunkOf('lib/pwa.ts')).toBeNull()
    expect(chunkOf('/repo/node_modules/preact/compat/dist/compat.mjs')).toBeNull()
  })
})

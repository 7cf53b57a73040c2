import { describe, expect, test } from 'vitest'
import { page, routeSources } from '@/app/route-table'

describe('routeSources', () => {
  test('names, for every page, the module its loader imports', () => {
    for (const { module, load } of Object.values(page)) expect(load.toString()).toContain(`"/${module}"`)
  })

  test('lists each route that shows a page with its path, module and namespaces', () => {
    const sources = routeSources()
    expect(sources).toContainEqual({
      path: '/items/:itemId',
      module: 'src/features/items/routes/item-page.tsx',
      namespaces: ['items', 'loans'],
    })
    expect(sources).toContainEqual({
      path: '/',
      module: 'src/features/landing/routes/home-page.tsx',
      namespaces: ['landing'],
    })
    expect(sources).toContainEqual(expect.objectContaining({ path: '/blockchain/circle/:circleId' }))
    expect(sources).toContainEqual(
      expect.objectContaining({ path: '/*', module: 'src/app/routes/not-found-page.tsx' }),
    )
    expect(new Set(sources.map((s) => s.path)).size).toBe(sources.length)
  })
})

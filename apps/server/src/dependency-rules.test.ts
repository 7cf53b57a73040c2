import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser'
import { afterAll, describe, expect, it } from 'vitest'

// The repository's rule set (.dependency-cruiser.cjs, `npm run lint:deps`; docs/decisions/0046) on a
// small tree laid out like ours, with one breach of each rule: the tool must name every one of them.
const config = createRequire(import.meta.url)('../../../.dependency-cruiser.cjs') as IConfiguration

const files: Record<string, string> = {
  // Allowed: the ledger checks membership; items append to the ledger.
  'apps/server/src/modules/membership/access.ts': 'export const requireMember = () => true\n',
  'apps/server/src/modules/items/items.service.ts':
    "import { append } from '../ledger/ledger.service'\nimport { requireMember } from '../membership/access'\nexport const create = () => append() && requireMember()\n",
  // The ledger names a type of circles: upward, and a cycle that exists only in types.
  'apps/server/src/modules/ledger/ledger.service.ts':
    "import type { Circle } from '../circles/circles.service'\nimport { requireMember } from '../membership/access'\nexport const append = (c?: Circle) => requireMember() && !c\n",
  'apps/server/src/modules/circles/circles.service.ts':
    "import { append } from '../ledger/ledger.service'\nexport interface Circle { id: string }\nexport const remove = () => append()\n",
  // Handovers write the items table through its repository.
  'apps/server/src/modules/handovers/handovers.service.ts':
    "import { setHolder } from '../items/items.repository'\nexport const confirm = () => setHolder()\n",
  'apps/server/src/modules/items/items.repository.ts': 'export const setHolder = () => true\n',
  // A module nobody placed in a layer.
  'apps/server/src/modules/newcomer/newcomer.service.ts':
    "import { create } from '../items/items.service'\nexport const x = create\n",
  // lib reaching up into a module.
  'apps/server/src/lib/events.ts':
    "import type { Circle } from '../modules/circles/circles.service'\nexport type E = Circle\n",
  // A feature loading another feature's barrel with import(), and lib importing a feature.
  'apps/web/src/features/ledger/index.ts': 'export const keepReceipt = () => true\n',
  'apps/web/src/features/items/api/handovers.ts':
    "export const keep = () => import('../../ledger').then((m) => m.keepReceipt())\n",
  'apps/web/src/lib/receipts.ts': "export { keep } from '../features/items/api/handovers'\n",
}

const root = mkdtempSync(path.join(tmpdir(), 'circles-dependency-rules-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

async function violations(): Promise<string[]> {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true })
    writeFileSync(path.join(root, name), text)
  }
  const { tsConfig: _paths, ...options } = config.options ?? {}
  const result = await cruise(['apps'], {
    ...options,
    baseDir: root,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
  })
  const output = result.output as ICruiseResult
  return output.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort()
}

describe('the dependency rules (npm run lint:deps)', () => {
  it('name each breach: upward and type-only imports, cycles, repositories, unplaced modules, lib, features', async () => {
    const found = await violations()
    const modules = 'apps/server/src/modules'
    expect(found).toEqual(
      expect.arrayContaining([
        `server-layers-ledger: ${modules}/ledger/ledger.service.ts -> ${modules}/circles/circles.service.ts`,
        `server-no-other-repository: ${modules}/handovers/handovers.service.ts -> ${modules}/items/items.repository.ts`,
        `server-module-has-a-layer: ${modules}/newcomer/newcomer.service.ts -> ${modules}/items/items.service.ts`,
        `server-base-below-modules: apps/server/src/lib/events.ts -> ${modules}/circles/circles.service.ts`,
        'web-feature-not-another-feature: apps/web/src/features/items/api/handovers.ts -> apps/web/src/features/ledger/index.ts',
        'web-shared-below-features: apps/web/src/lib/receipts.ts -> apps/web/src/features/items/api/handovers.ts',
      ]),
    )
    expect(found.some((v) => v.startsWith(`no-circular: ${modules}/`))).toBe(true)
    // The allowed directions stay quiet: items -> ledger, ledger and items -> membership.
    expect(found.filter((v) => v.includes('/membership/') || v.startsWith('server-layers-items'))).toEqual([])
  }, 60_000)
})

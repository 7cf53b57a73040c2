// Fails when an installed package's engines field excludes the Node.js version the README promises
// (package.json "engines"), e.g. a transitive dependency that moved to Node 22. Part of `npm run check`.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import semver from 'semver'

const root = path.resolve(import.meta.dirname, '..')
const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
const promised = semver.minVersion(rootPackage.engines.node).version
const problems = new Map()

function walk(dir) {
  if (!existsSync(dir)) return
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue
    const full = path.join(dir, name)
    if (name.startsWith('@')) {
      walk(full)
      continue
    }
    const manifest = path.join(full, 'package.json')
    if (!existsSync(manifest)) continue
    const { name: pkg, version, engines } = JSON.parse(readFileSync(manifest, 'utf8'))
    const wanted = engines?.node
    if (typeof wanted === 'string' && semver.validRange(wanted) && !semver.satisfies(promised, wanted)) {
      problems.set(`${pkg}@${version}`, `${wanted} (${path.relative(root, full)})`)
    }
    walk(path.join(full, 'node_modules'))
  }
}

walk(path.join(root, 'node_modules'))
for (const workspace of rootPackage.workspaces) walk(path.join(root, workspace, 'node_modules'))

if (problems.size > 0) {
  console.error(`These installed packages do not run on Node ${promised}, which the README promises:`)
  for (const [pkg, wanted] of problems) console.error(`  ${pkg} needs node ${wanted}`)
  console.error('Pin an older version (package.json "overrides") or replace the dependency.')
  process.exit(1)
}
console.log(`engines: every installed package runs on Node ${promised}`)

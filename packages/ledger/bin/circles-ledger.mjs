#!/usr/bin/env node
// The command-line verifier (issue 14). `npm run build` bundles it to ../dist/cli.mjs.
import { existsSync } from 'node:fs'

const bundle = new URL('../dist/cli.mjs', import.meta.url)
if (!existsSync(bundle)) {
  console.error('circles-ledger is not built yet: run `npm run build` in the repository first.')
  process.exit(2)
}
const { main } = await import(bundle.href)
process.exitCode = await main(process.argv.slice(2))

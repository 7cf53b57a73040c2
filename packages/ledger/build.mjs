// Bundles the command-line verifier (src/cli.ts and the pure ledger code it uses) for plain Node.
import { build } from 'esbuild'

await build({
  entryPoints: [new URL('./src/cli.ts', import.meta.url).pathname],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outfile: new URL('./dist/cli.mjs', import.meta.url).pathname,
  logLevel: 'warning',
})
console.log('ledger CLI built to packages/ledger/dist/cli.mjs')

// Bundles the server and our workspace packages into dist/; npm dependencies stay external
// (native modules, PGlite's wasm) and the SQL migrations are copied beside the bundle.
import { cp, rm } from 'node:fs/promises'
import { context } from 'esbuild'

const here = new URL('.', import.meta.url).pathname

/**
 * Bare imports other than our own workspace packages resolve from node_modules at run time. Package
 * "imports" (`#sha256` in packages/ledger) are our own code: bundled, with Node's conditions.
 */
const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./#]/ }, (args) =>
      args.path.startsWith('@circles/') ? undefined : { path: args.path, external: true },
    )
  },
}

const watch = process.argv.includes('--watch')
/** `--outdir <dir>` (relative to apps/server, inside dist/): a test's own build, leaving dist/ alone. */
const at = process.argv.indexOf('--outdir')
const outdir = at > 0 ? process.argv[at + 1] : 'dist'

await rm(`${here}${outdir}`, { recursive: true, force: true })
await cp(`${here}src/db/migrations`, `${here}${outdir}/migrations`, { recursive: true })
const ctx = await context({
  absWorkingDir: here,
  entryPoints: {
    server: 'src/server.ts',
    'migrate-pglite': 'src/db/migrate-pglite.ts',
    backup: 'src/backup/cli.ts',
  },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  plugins: [externalDependencies],
  logLevel: watch ? 'info' : 'warning',
})
if (watch) {
  await ctx.watch()
} else {
  await ctx.rebuild()
  await ctx.dispose()
  console.log(`server built to apps/server/${outdir}`)
}

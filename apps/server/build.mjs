// Bundles the server, our workspace packages and the pure-JavaScript npm dependencies into dist/ (one
// file per entry: a start compiles one file instead of resolving and reading about a thousand, issue 25,
// docs/decisions/0045). Packages that need files beside their own code stay external and load from
// node_modules: native modules, PGlite (its wasm and data files), the API docs' UI (its static files).
// The SQL migrations are copied beside the bundle.
import { cp, rm } from 'node:fs/promises'
import { context } from 'esbuild'

const here = new URL('.', import.meta.url).pathname

/**
 * npm packages left to Node at run time. Native: argon2, sharp, fs-native-extensions. Files read from
 * their own directory: PGlite (wasm, data, extensions), @fastify/swagger-ui (its static assets).
 * Loaded on demand already (dynamic import at the first passkey request): @simplewebauthn/server.
 * Optional peers that are not installed: pg-native (pg), bufferutil and utf-8-validate (ws).
 */
const externalPackages = new Set([
  '@electric-sql/pglite',
  '@node-rs/argon2',
  'sharp',
  'fs-native-extensions',
  '@fastify/swagger-ui',
  '@simplewebauthn/server',
  'pg-native',
  'bufferutil',
  'utf-8-validate',
])

const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/')

/** Bare imports of `externalPackages` (and Node's own modules) resolve from node_modules at run time. */
const externalDependencies = {
  name: 'external-dependencies',
  setup(b) {
    b.onResolve({ filter: /^[^./#]/ }, (args) =>
      args.path.startsWith('node:') || externalPackages.has(packageName(args.path))
        ? { path: args.path, external: true }
        : undefined,
    )
  },
}

/**
 * The bundled CommonJS packages call `require` for Node's modules (and the external packages): an ES
 * module has none, so the bundle gets one made for its own location.
 */
const banner = {
  js: "import { createRequire as __circlesCreateRequire } from 'node:module';\nconst require = __circlesCreateRequire(import.meta.url);",
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
  banner,
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

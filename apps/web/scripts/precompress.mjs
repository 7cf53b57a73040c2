// Runs last in `npm run build`: writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip -9) beside
// every compressible file of dist that the server sends from disk, so @fastify/static sends them as they are
// (apps/server/src/plugins/spa.ts, preCompressed) instead of compressing each answer again at a lower
// quality. Brotli 11 is too slow per request but fine once per build. HTML is not here: the server
// writes the runtime config into every page and compresses those answers itself (docs/decisions/0055).
import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

const dist = fileURLToPath(new URL('../dist', import.meta.url))
/** What @fastify/compress would compress on the fly (its threshold: 1 KiB), and the QR reader's WebAssembly. */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|webmanifest|txt|wasm)$/
const MIN_BYTES = 1024
/** Served by the page handler, not from disk. */
const SKIP_DIRS = new Set(['prerender', '.vite'])

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) yield* files(path.join(dir, entry.name))
    } else if (COMPRESSIBLE.test(entry.name)) yield path.join(dir, entry.name)
  }
}

let count = 0
let raw = 0
let brotliBytes = 0
for await (const file of files(dist)) {
  if ((await stat(file)).size < MIN_BYTES) continue
  const body = await readFile(file)
  const [br, gzipped] = await Promise.all([
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
    gz(body, { level: 9 }),
  ])
  // A compressed copy no smaller than the file would only cost a disk read.
  if (br.length < body.length) await writeFile(`${file}.br`, br)
  if (gzipped.length < body.length) await writeFile(`${file}.gz`, gzipped)
  count++
  raw += body.length
  brotliBytes += br.length
}
console.log(
  `precompressed ${count} files: ${(raw / 1024).toFixed(0)} KB → ${(brotliBytes / 1024).toFixed(0)} KB brotli`,
)

// Part of bench/ledger-proofs.mjs (issue 29, docs/decisions/0058): on PostgreSQL, the server's proof
// work at 1,000,000 blocks — an inclusion and a consistency proof built from the circle's tiles as the
// server reads them (the repository's own `readTiles`, through drizzle on node-postgres) — against a
// plain indexed read of one block row, in the same run, on the same connection pool, taken in turn.
import { createHash, randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { build } from 'esbuild'
import { freshPostgresDatabase, insertGeneratedBlocks, root, startApp } from './lib.mjs'

export const PROOF_TREE_SIZE = Number(process.env.BENCH_SERVER_PROOF_SIZE ?? 1_000_000)
const SAMPLES = 300

/** The server's repository and schema, bundled from source. */
async function serverCode() {
  const outfile = path.join(root, 'bench', `.ledger-proofs-server-${process.pid}.mjs`)
  await build({
    stdin: {
      contents: `
        export { drizzle } from 'drizzle-orm/node-postgres'
        export { and, eq } from 'drizzle-orm'
        export * as schema from './apps/server/src/db/schema/index.ts'
        export { readTiles } from './apps/server/src/modules/ledger/ledger.repository.ts'
      `,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    // The database driver and ORM as the server loads them; the workspace's TypeScript bundled.
    external: ['pg', 'pg-native', 'drizzle-orm', 'drizzle-orm/*'],
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    outfile,
    logLevel: 'warning',
  })
  try {
    return await import(outfile)
  } finally {
    await rm(outfile)
  }
}

const md5 = (i) => createHash('md5').update(String(i)).digest('hex')
/** Block `i`'s hash in the generated log (PostgreSQL computes the same: md5(i) || md5(i + 1)). */
const hashAt = (i) => md5(i) + md5(i + 1)

/** A circle of `size` blocks (rows generated in the database) and its tiles, built once from the leaves. */
async function seed(pool, ledger, size) {
  const circleId = randomUUID()
  await insertGeneratedBlocks(pool, circleId, size, randomUUID())
  const leaves = Array.from({ length: size }, (_, i) => Buffer.from(hashAt(i), 'hex'))
  const tiles = ledger.buildTiles(leaves)
  for (let i = 0; i < tiles.length; i += 200) {
    const part = tiles.slice(i, i + 200)
    const values = part.map((_, j) => `($1, $${3 * j + 2}, $${3 * j + 3}, $${3 * j + 4})`).join(', ')
    await pool.query(`INSERT INTO ledger_tiles (circle_id, level, idx, data) VALUES ${values}`, [
      circleId,
      ...part.flatMap(({ tile, data }) => [tile.level, tile.index, Buffer.from(data)]),
    ])
  }
  await pool.query(
    'INSERT INTO ledger_heads (circle_id, size, head_hash, tiled_size) VALUES ($1, $2, $3, $2)',
    [circleId, size, hashAt(size - 1)],
  )
  return { circleId, leaves }
}

/**
 * Median times (ms) of the three, alternated: one block row by its index; an inclusion proof; a
 * consistency proof (from a random earlier size), each as the service builds it from `readTiles`.
 */
export async function serverProofTimes(ledger, median) {
  if (!process.env.DATABASE_URL) return null
  const size = PROOF_TREE_SIZE
  const database = await freshPostgresDatabase(process.env.DATABASE_URL)
  const app = await startApp({ DATABASE_URL: database.url })
  await app.stop()
  const server = await serverCode()
  const { default: pg } = await import('pg')
  const pool = new pg.Pool({ connectionString: database.url, max: 4 })
  const db = server.drizzle(pool, { schema: server.schema })
  try {
    let started = performance.now()
    const { circleId, leaves } = await seed(pool, ledger, size)
    console.log(
      `server proofs: ${size} blocks and their tiles written in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    )
    await pool.query('ANALYZE')
    // As the service's tileReader: the stored rows, each cut to the width the tree of `size` has.
    const reader = async (tiles) => {
      const rows = await server.readTiles(
        db,
        circleId,
        tiles.map((t) => ({ level: t.level, idx: t.index })),
      )
      const stored = new Map(rows.map((row) => [`${row.level}/${row.idx}`, row.data]))
      return tiles.map((t) => Uint8Array.from(stored.get(`${t.level}/${t.index}`).subarray(0, t.width * 32)))
    }
    const tree = ledger.tiledTree(size, reader)
    const root = await tree.root()
    // Once, untimed: the proofs are the right ones.
    const from = Math.floor(size * 0.9)
    const fromRoot = await ledger.tiledTree(from, reader).root()
    if (!ledger.verifyConsistency(from, size, fromRoot, root, await tree.consistencyProof(from)))
      throw new Error('consistency proof does not verify')
    const { blocks } = server.schema
    const random = (n) => Math.floor(Math.random() * n)
    const tasks = {
      row: async () => {
        const height = random(size)
        const [row] = await db
          .select()
          .from(blocks)
          .where(server.and(server.eq(blocks.circleId, circleId), server.eq(blocks.height, height)))
        if (row.hash !== hashAt(height)) throw new Error('wrong row')
      },
      inclusion: async () => {
        const index = random(size)
        const [path] = await tree.inclusionProofs([index])
        if (!ledger.verifyInclusion(index, size, leaves[index], path.proof, root))
          throw new Error('inclusion proof does not verify')
      },
      consistency: async () => {
        const from = 1 + random(size - 1)
        const proof = await tree.consistencyProof(from)
        if (proof.length === 0) throw new Error('empty consistency proof')
      },
    }
    const times = { row: [], inclusion: [], consistency: [] }
    for (let warm = 0; warm < 20; warm++) for (const task of Object.values(tasks)) await task()
    for (let i = 0; i < SAMPLES; i++)
      for (const [name, task] of Object.entries(tasks)) {
        started = performance.now()
        await task()
        times[name].push(performance.now() - started)
      }
    const result = Object.fromEntries(Object.entries(times).map(([name, t]) => [name, median(t)]))
    console.log(
      `server proofs at ${size}: row ${result.row.toFixed(2)} ms, inclusion ${result.inclusion.toFixed(2)} ms, consistency ${result.consistency.toFixed(2)} ms`,
    )
    return { size, samples: SAMPLES, ...result }
  } finally {
    await pool.end()
    await database.drop()
  }
}

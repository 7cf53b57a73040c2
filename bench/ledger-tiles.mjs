// Tiles benchmark (issue 29, docs/decisions/0058), on PostgreSQL (DATABASE_URL): what writing the tiles
// costs an append. The locked append of bench/ledger.mjs (lock the head, insert the block, move the head)
// against the same append that also adds its leaf hash to its level-0 tile (the upsert every append does
// since issue 29, as a CTE of the head's update), same database, same concurrency, alternated. Written
// to bench/README.md.
import { createHash, randomUUID } from 'node:crypto'
import os from 'node:os'
import pg from 'pg'
import { freshPostgresDatabase, startApp, writeSection } from './lib.mjs'

const WORKERS = 8
const PER_WORKER = 60
const ROUNDS = 3

if (!process.env.DATABASE_URL) {
  console.log('DATABASE_URL is not set: the tiles benchmark runs on PostgreSQL only; nothing measured')
  process.exit(0)
}

/** Appends WORKERS × PER_WORKER blocks to a new circle's log, with or without the tile upsert. */
async function appends(pool, withTiles) {
  const circleId = randomUUID()
  await pool.query('INSERT INTO ledger_heads (circle_id) VALUES ($1)', [circleId])
  const started = performance.now()
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      const client = await pool.connect()
      try {
        for (let i = 0; i < PER_WORKER; i++) {
          await client.query('BEGIN')
          const { rows } = await client.query(
            'SELECT size, head_hash FROM ledger_heads WHERE circle_id = $1 FOR UPDATE',
            [circleId],
          )
          const { size, head_hash: prev } = rows[0]
          const hash = createHash('sha256').update(`${prev}${size}`).digest()
          const id = randomUUID()
          await client.query(
            `INSERT INTO blocks (circle_id, height, hash, prev_hash, version, kind, first, time, circle_name,
               handover_id, item_id, item_name, from_id, from_name, to_id, to_name, ownership)
             VALUES ($1,$2,$3,$4,1,'HANDOVER',$5,$6,'Raw',$7,$7,'Item',$7,'A',$7,'B','PARTIAL')`,
            [circleId, size, hash.toString('hex'), prev, size === 0, new Date().toISOString(), id],
          )
          // As the app does since issue 29: the tile's upsert rides on the head's update.
          const tile = withTiles
            ? `WITH tile AS (INSERT INTO ledger_tiles (circle_id, level, idx, data) VALUES ($1, 0, $4, $5)
                 ON CONFLICT (circle_id, level, idx) DO UPDATE SET data = ledger_tiles.data || excluded.data) `
            : ''
          await client.query(
            `${tile}UPDATE ledger_heads SET size = $2, head_hash = $3 WHERE circle_id = $1`,
            [circleId, size + 1, hash.toString('hex'), ...(withTiles ? [Math.floor(size / 256), hash] : [])],
          )
          await client.query('COMMIT')
        }
      } finally {
        client.release()
      }
    }),
  )
  return (WORKERS * PER_WORKER) / ((performance.now() - started) / 1000)
}

const database = await freshPostgresDatabase(process.env.DATABASE_URL)
// The server migrates the database (the tables as this release has them), then is not needed.
const app = await startApp({ DATABASE_URL: database.url })
await app.stop()
const pool = new pg.Pool({ connectionString: database.url, max: WORKERS })
try {
  await appends(pool, true) // warm-up
  const without = []
  const withTiles = []
  for (let round = 0; round < ROUNDS; round++) {
    without.push(await appends(pool, false))
    withTiles.push(await appends(pool, true))
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
  const [base, tiled] = [median(without), median(withTiles)]
  console.log(
    `append without tiles ${base.toFixed(0)}/s, with tiles ${tiled.toFixed(0)}/s (${(tiled / base).toFixed(2)})`,
  )
  await writeSection(
    'ledger-tiles',
    `<!-- ledger-tiles:start -->
## Ledger tiles (\`npm run bench:ledger-tiles\`, PostgreSQL)

${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores. ${WORKERS} writers appending ${PER_WORKER} blocks each to one
circle's log at once, the locked append of the ledger benchmark (lock the head, insert the block, move the
head), without and with the level-0 tile upsert every append does since issue 29, riding on the head's
update as a CTE (docs/decisions/0058);
${ROUNDS} rounds alternated, medians. (A full tile's hash going up a level, once in 256 appends, is not in it.)

| append | per second | ratio |
|---|---:|---:|
| without tiles (baseline) | ${base.toFixed(0)} | 1.00 |
| with the tile upsert | ${tiled.toFixed(0)} | ${(tiled / base).toFixed(2)} |

Target: at least 0.9.
<!-- ledger-tiles:end -->`,
  )
} finally {
  await pool.end()
  await database.drop()
}

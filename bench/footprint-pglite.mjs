// The footprint baseline: a plain Node process that loads PGlite alone (its own default settings, the
// contrib extension the app loads) on the data directory given, answers `select 1`, prints "ready" and
// idles until it is stopped. bench/footprint.mjs runs it on the server's database while the server is down.
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'

const client = await PGlite.create({ dataDir: process.argv[2], extensions: { pg_trgm } })
await client.query('select 1')
console.log('ready')
const stop = async () => {
  await client.close()
  process.exit(0)
}
process.once('SIGTERM', () => void stop())
setInterval(() => {}, 60_000)

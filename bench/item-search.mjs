// Item search benchmark (issue 23, docs/decisions/0031): 10,000 items in two circles, searched, filtered,
// sorted and paged through GET /api/items and GET /api/items/circle/:id, each beside a bare Fastify
// baseline measured in the same run. Embedded PGlite always; PostgreSQL too when DATABASE_URL is set (a
// fresh database on that server, dropped afterwards), where the text search is measured again without
// the trigram index to show what it gains. Written to bench/README.md.
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import {
  children,
  CONNECTIONS,
  DURATION,
  freshPostgresDatabase,
  json,
  run,
  startApp,
  startBaseline,
  verifiedUser,
  writeSection,
} from './lib.mjs'

const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000)
const NOUNS = ['drill', 'ladder', 'tent', 'kayak', 'saw', 'projector', 'bike', 'sander', 'grill', 'stroller']
const ADJECTIVES = [
  'cordless',
  'old',
  'red',
  'folding',
  'heavy',
  'electric',
  'small',
  'spare',
  'wooden',
  'blue',
]
const PLACES = ['garage', 'basement', 'shed', 'attic', 'hallway']

/**
 * The items, written straight into the database in one statement (the API would take minutes for
 * 10,000 on a busy machine); one item in 1,000 carries the rare word 'zebra'.
 */
const SEED_SQL = `
  insert into items (circle_id, owner_id, name, description, ownership, created_by_id, created_at, updated_at)
  select (case when i % 2 = 0 then $1 else $2 end)::uuid, $3::uuid,
    (array[${ADJECTIVES.map((w) => `'${w}'`).join(',')}])[(i / ${NOUNS.length}) % ${ADJECTIVES.length} + 1]
      || ' ' || (array[${NOUNS.map((w) => `'${w}'`).join(',')}])[i % ${NOUNS.length} + 1] || ' ' || i,
    'Kept in the ' || (array[${PLACES.map((w) => `'${w}'`).join(',')}])[i % ${PLACES.length} + 1]
      || ', ask before taking it' || (case when i % 1000 = 7 then ' zebra stripes' else '' end) || '.',
    'COMPLETE', $3::uuid, now() - make_interval(secs => i), now()
  from generate_series(0, $4 - 1) as i`

async function seedPglite(dataDir, params) {
  const { PGlite } = await import('@electric-sql/pglite')
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
  const db = await PGlite.create({ dataDir: path.join(dataDir, 'db'), extensions: { pg_trgm } })
  await db.query(SEED_SQL, params)
  await db.exec('analyze items')
  await db.close()
}

async function seedPostgres(url, params) {
  const { default: pg } = await import('pg')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(SEED_SQL, params)
  await client.query('analyze items')
  await client.end()
}

/** One request's time and size, for the list without a limit (too slow for a load run). */
async function timeOnce(url, headers) {
  const started = performance.now()
  const res = await fetch(url, { headers })
  const bytes = (await res.arrayBuffer()).byteLength
  if (!res.ok) throw new Error(`${url}: ${res.status}`)
  return { ms: performance.now() - started, bytes }
}

async function measure(label, env, { databaseUrl, dropIndex } = {}) {
  const hello = await startBaseline()
  // DATA_DIR of our own: with PGlite the items go in while the server is stopped, then it starts again.
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'circles-bench-search-'))
  const settings = {
    PLAN_LIMITS: 'off',
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  }
  let app = await startApp(settings)
  try {
    const { base } = app
    // The server writes its mail under our DATA_DIR.
    const { auth, user } = await verifiedUser(base, { ...app, mailDir: path.join(dataDir, 'mail') })
    const circleIds = []
    for (const name of ['Bench circle A', 'Bench circle B']) {
      const circle = await json(`${base}/api/circles`, { name, description: 'Search' }, auth)
      circleIds.push(circle.body.circle.id)
    }
    const params = [circleIds[0], circleIds[1], user.id, ITEMS]
    if (databaseUrl) {
      await seedPostgres(databaseUrl, params)
    } else {
      await app.stop()
      await seedPglite(dataDir, params)
      app = await startApp(settings)
    }
    const url = (p) => `${app.base}${p}`
    const check = await json(url('/api/items?q=zebra&limit=24'), undefined, auth)
    if (check.body.total !== ITEMS / 1000) throw new Error(`zebra: ${JSON.stringify(check.body)}`)

    const get = (title, p) => run(title, { url: url(p), headers: auth })
    const scenarios = [
      () => run('bare Fastify GET /hello (baseline)', { url: `http://127.0.0.1:${hello.value}/hello` }),
      () =>
        get('/items, first page: holder=me, newest, limit=24', '/api/items?holder=me&sort=newest&limit=24'),
      () => get('text, rare word: q=zebra (10 matches)', '/api/items?q=zebra&limit=24'),
      () => get('text, common word: q=drill (1,000 matches)', '/api/items?q=drill&limit=24'),
      () => get('two words: q=cordless drill (100 matches)', '/api/items?q=cordless%20drill&limit=24'),
      () =>
        get(
          'q=drill, state=available, sort=name, 3rd page',
          '/api/items?q=drill&state=available&sort=name&limit=24&offset=48',
        ),
      () =>
        get(
          "a circle's items: state=available, sort=recent-handover",
          `/api/items/circle/${circleIds[0]}?state=available&sort=recent-handover&limit=24`,
        ),
    ]
    const results = []
    for (const scenario of scenarios) results.push(await scenario())
    const unlimited = await timeOnce(url('/api/items'), auth)

    let withoutIndex
    if (dropIndex) {
      await dropIndex()
      withoutIndex = [
        await get('without the trigram index: q=zebra', '/api/items?q=zebra&limit=24'),
        await get('without the trigram index: q=drill', '/api/items?q=drill&limit=24'),
      ]
    }
    return { label, results, unlimited, withoutIndex }
  } finally {
    await app.stop()
    hello.child.kill('SIGTERM')
    await rm(dataDir, { recursive: true, force: true })
  }
}

function table({ results, withoutIndex }) {
  const baseline = results[0].rps
  const row = (r) =>
    `| ${r.title} | ${r.rps.toFixed(r.rps < 100 ? 1 : 0)} | ${(r.rps / baseline).toFixed(4)} | ${r.p50} | ${r.p99} |`
  return [
    '| scenario | req/s | ratio to baseline | p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|',
    ...results.map(row),
    ...(withoutIndex ?? []).map(row),
  ]
}

const runs = []
try {
  runs.push(await measure('PGlite (embedded, the default)', {}))
  if (process.env.DATABASE_URL) {
    const database = await freshPostgresDatabase(process.env.DATABASE_URL)
    try {
      const dropIndex = async () => {
        const { default: pg } = await import('pg')
        const client = new pg.Client({ connectionString: database.url })
        await client.connect()
        await client.query('DROP INDEX items_search_trgm_idx')
        await client.end()
      }
      runs.push(await measure('PostgreSQL (`DATABASE_URL`)', {}, { databaseUrl: database.url, dropIndex }))
    } finally {
      await database.drop()
    }
  }
  const section = [
    '<!-- item-search:start -->',
    '## Item search (`npm run bench:item-search`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores, Node ${process.version}, ${DURATION} s per`,
    `scenario, ${CONNECTIONS} connections, loopback, rate limits off. ${ITEMS.toLocaleString('en')} items in two circles of one`,
    'user, written straight into the database; names and descriptions from small word lists, so a common word matches',
    'one item in ten. Ratios are to a bare Fastify app measured in the same run right before each table.',
    'Every search is a page of 24 with the total count of matches (what the web app asks). docs/decisions/0031.',
    '',
    ...runs.flatMap((r) => [
      `### ${r.label}`,
      '',
      ...table(r),
      '',
      `Without a limit, GET /api/items (every one of the ${ITEMS.toLocaleString('en')} items, the old answer) took ` +
        `${Math.round(r.unlimited.ms)} ms for ${(r.unlimited.bytes / 1024 / 1024).toFixed(1)} MB once.`,
      '',
    ]),
    '<!-- item-search:end -->',
  ].join('\n')
  await writeSection('item-search', section)
  console.log(section)
} finally {
  for (const child of children) child.kill('SIGTERM')
}

// API load benchmark: bare Fastify hello vs POST /api/users/login vs authenticated reads (user status,
// the circle list, a circle's page), all in one run on loopback, written to bench/README.md as ratios.
// Bounded: each scenario runs DURATION seconds with CONNECTIONS connections, then everything stops.
import os from 'node:os'
import {
  children,
  CONNECTIONS,
  freshPostgresDatabase,
  DURATION,
  json,
  readReadme,
  run,
  startApp,
  startBaseline,
  verifiedUser,
  writeSection,
} from './lib.mjs'

/** Starts the built server on a store, makes a verified user with a circle, and measures the scenarios. */
async function measure(store, env) {
  const app = await startApp(env)
  try {
    const { base } = app
    const { user, auth, email, password } = await verifiedUser(base, app)
    const created = await json(
      `${base}/api/circles`,
      { name: 'Bench circle', description: 'Benchmark' },
      auth,
    )
    if (created.status !== 201) throw new Error(`create circle failed: ${JSON.stringify(created.body)}`)
    const circleId = created.body.circle.id

    // The baseline right before this store's scenarios, so both see the machine alike.
    const results = [
      await run('bare Fastify GET /hello (baseline)', { url: `http://127.0.0.1:${hello.value}/hello` }),
    ]
    results.push(await run('GET /api/health (no database)', { url: `${base}/api/health` }))
    results.push(
      await run('POST /api/users/login (argon2id verify + JWT)', {
        url: `${base}/api/users/login`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      }),
    )
    results.push(
      await run('GET /api/users/status/:id (JWT + user lookup)', {
        url: `${base}/api/users/status/${user.id}`,
        headers: auth,
      }),
    )
    results.push(
      await run('GET /api/circles (JWT, user, memberships + member counts)', {
        url: `${base}/api/circles`,
        headers: auth,
      }),
    )
    results.push(
      await run('GET /api/circles/:id (access check, members, items)', {
        url: `${base}/api/circles/${circleId}`,
        headers: auth,
      }),
    )
    return { store, results }
  } finally {
    await app.stop()
  }
}

function table({ store, results }) {
  const baseline = results[0].rps
  return [
    `### ${store}`,
    '',
    '| scenario | req/s | ratio to baseline | p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|',
    ...results.map(
      (r) => `| ${r.title} | ${Math.round(r.rps)} | ${(r.rps / baseline).toFixed(3)} | ${r.p50} | ${r.p99} |`,
    ),
  ].join('\n')
}

const hello = await startBaseline()
try {
  const measured = [await measure('PGlite (embedded, the default)', {})]
  if (process.env.DATABASE_URL) {
    const database = await freshPostgresDatabase(process.env.DATABASE_URL)
    try {
      measured.push(await measure('PostgreSQL (`DATABASE_URL`)', { DATABASE_URL: database.url }))
    } finally {
      await database.drop()
    }
  } else {
    console.warn(
      'DATABASE_URL is not set: PostgreSQL is not measured (its table in bench/README.md stays as it was)',
    )
  }

  const previous = await readReadme()
  const oldPostgres = previous.match(/### PostgreSQL[\s\S]*?(?=\n<!-- api:notes -->)/)?.[0]
  const tables = measured.map(table)
  if (!process.env.DATABASE_URL && oldPostgres)
    tables.push(`${oldPostgres.trim()}\n\n(PostgreSQL: from an earlier run.)`)
  const section = [
    '<!-- api:start -->',
    '## API load (`npm run bench:api`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores, Node ${process.version},`,
    `${DURATION} s per scenario, ${CONNECTIONS} connections, loopback, rate limits off, the server's default`,
    'log level (info). Ratios are to a bare Fastify app measured in the same run right before each',
    'table; absolute numbers vary by machine. PostgreSQL is measured when `DATABASE_URL` is set',
    '(a fresh database on that server, dropped afterwards).',
    '',
    tables.join('\n\n'),
    '<!-- api:notes -->',
    '<!-- api:end -->',
  ].join('\n')
  const notes = previous.match(/<!-- api:notes -->([\s\S]*?)<!-- api:end -->/)?.[1] ?? '\n'
  const filled = section.replace(
    '<!-- api:notes -->\n<!-- api:end -->',
    `<!-- api:notes -->${notes}<!-- api:end -->`,
  )
  await writeSection('api', filled)
  console.log(filled)
} finally {
  for (const child of children) child.kill('SIGTERM')
}

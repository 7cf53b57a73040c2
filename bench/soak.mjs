// Soak (issue 25): the built server as a real process, on the embedded default and on PostgreSQL, under
// a busy evening's mixed traffic for SOAK_MINUTES each: sign-ins, reads (dashboard, circles, items, item
// pages, pictures, ledger), items created with a picture (multipart JPEG), handover requests and their
// confirmations (each appends a ledger block), and SOAK_SOCKETS connected sockets receiving the events.
// Open loop: SOAK_RATE operations a second at fixed intervals whatever the answers' speed, at most
// SOAK_CONCURRENCY in flight (an operation due while that many are open is counted as skipped, never
// queued). Every minute: requests, errors, p50/p99, the server's resident memory (VmRSS), the sockets'
// item_update events received against those expected. Written to bench/README.md (`## Soak`), targets
// checked. Design: docs/decisions/0044-soak.md.
//
// SOAK_MINUTES (10), SOAK_RATE (10), SOAK_CONCURRENCY (32), SOAK_SOCKETS (1000), SOAK_USERS (40),
// SOAK_CIRCLES (8), SOAK_DATABASES (embedded,postgres), SOAK_PORT (41400), BENCH_DATABASE_URL or
// DATABASE_URL (else postgres://circles:circles@127.0.0.1:5432/postgres) for the PostgreSQL run;
// BENCH_CPU_PROF=<dir> (CPU profile of the server), SOAK_HEAP_SNAPSHOTS=<dir> (a heap snapshot a minute),
// SOAK_WRITE=off (print only, bench/README.md untouched).
import { fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import sharp from 'sharp'
import { freshPostgresDatabase, json, root, startApp, verifiedUser, writeSection } from './lib.mjs'

const MINUTES = Number(process.env.SOAK_MINUTES ?? 10)
const RATE = Number(process.env.SOAK_RATE ?? 10)
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 32)
const SOCKETS = Number(process.env.SOAK_SOCKETS ?? 1000)
const USERS = Number(process.env.SOAK_USERS ?? 40)
const CIRCLES = Number(process.env.SOAK_CIRCLES ?? 8)
const DATABASES = (process.env.SOAK_DATABASES ?? 'embedded,postgres').split(',')
const PORT = Number(process.env.SOAK_PORT ?? 41400)
const POSTGRES =
  process.env.BENCH_DATABASE_URL ??
  process.env.DATABASE_URL ??
  'postgres://circles:circles@127.0.0.1:5432/postgres'
const ITEMS_PER_MEMBERSHIP = 3
const REQUEST_TIMEOUT_MS = 60_000

/**
 * The mix, in operations out of 100. Reads are most of an evening; every handover request is later
 * confirmed by its receiver; an item with a picture is two requests (create, then upload).
 */
const MIX = [
  ['sign-in', 3],
  ['dashboard stats', 10],
  ['recent activities', 8],
  ['circles list', 10],
  ['circle page', 8],
  ['circle items', 12],
  ['item page', 8],
  ['item handovers', 5],
  ['thumbnail', 6],
  ['circle ledger', 4],
  ['ledger checkpoint', 2],
  ['my handovers', 4],
  ['item with picture', 2],
  ['handover request', 9],
  ['handover confirmation', 9],
]
const MIX_TOTAL = MIX.reduce((sum, [, weight]) => sum + weight, 0)

const percentile = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN
const pick = (list) => list[Math.floor(Math.random() * list.length)]
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A phone-like photo, 2000x1500: smooth shapes (noise scaled up) with a little grain, about 0.5 MB of
 * JPEG, as a phone sends. (Pure noise, as bench/items.mjs uses, is the encoder's worst case.)
 */
async function photo() {
  const width = 2000
  const height = 1500
  const pixels = await sharp(randomBytes(100 * 75 * 3), { raw: { width: 100, height: 75, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer()
  const grain = randomBytes(pixels.length)
  for (let i = 0; i < pixels.length; i++)
    pixels[i] = Math.max(0, Math.min(255, pixels[i] + (grain[i] & 7) - 4))
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer()
}

function multipart(bytes) {
  const boundary = '----circlessoak'
  return {
    body: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}

/** The process's CPU time so far, in seconds (utime + stime of /proc/<pid>/stat). */
async function cpuSeconds(pid) {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

async function rssMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(status.match(/VmRSS:\s+(\d+) kB/)[1]) / 1024
}

function startServer(env, port) {
  return startApp(
    { PLAN_LIMITS: 'off', JWT_SECRET: randomBytes(32).toString('hex'), ...env },
    {
      port,
      // SOAK_HEAP_SNAPSHOTS=<dir>: the server writes a heap snapshot there at the end of every minute.
      nodeArgs: process.env.SOAK_HEAP_SNAPSHOTS
        ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${process.env.SOAK_HEAP_SNAPSHOTS}`]
        : [],
    },
  )
}

async function must(base, url, body, auth, status = [200, 201]) {
  const res = await json(`${base}${url}`, body, auth)
  if (!status.includes(res.status)) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

/** Users, circles (each user a member of two), items, pictures: the instance an evening starts on. */
async function populate(app, picture) {
  const { base } = app
  const users = []
  for (let i = 0; i < USERS; i++) users.push(await verifiedUser(base, app, `soak${i}@example.com`))
  const circles = []
  for (let c = 0; c < CIRCLES; c++) {
    const owner = users[c % USERS]
    const { circle } = await must(
      base,
      '/api/circles',
      { name: `Soak circle ${c}`, description: '' },
      owner.auth,
    )
    circles.push({ id: circle.id, members: [owner], items: [] })
  }
  for (let i = 0; i < USERS; i++) {
    for (const c of [i % CIRCLES, (i + 1) % CIRCLES]) {
      const circle = circles[c]
      if (circle.members.includes(users[i])) continue
      const { invitation } = await must(
        base,
        `/api/circles/${circle.id}/invitations/qr`,
        { email: users[i].email },
        circle.members[0].auth,
      )
      await must(base, `/api/circles/invitations/${invitation.token}`, {}, users[i].auth)
      circle.members.push(users[i])
    }
  }
  for (const circle of circles) {
    for (const member of circle.members) {
      for (let k = 0; k < ITEMS_PER_MEMBERSHIP; k++) {
        const { item } = await must(
          base,
          '/api/items',
          { name: `Thing ${k} of ${member.email}`, circleId: circle.id },
          member.auth,
        )
        const entry = { id: item.id, circleId: circle.id, owner: member, busy: false }
        if (k === 0) {
          const res = await fetch(`${base}/api/items/${item.id}/image`, {
            method: 'POST',
            headers: { ...member.auth, 'content-type': picture.contentType },
            body: picture.body,
          })
          if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`)
          entry.thumbnailUrl = (await res.json()).thumbnailUrl
        }
        circle.items.push(entry)
      }
    }
  }
  return { users, circles }
}

function startCrowd(base, users) {
  const perUser = Math.ceil(SOCKETS / users.length)
  const list = users.map((u, i) => ({
    token: u.auth.authorization.slice('Bearer '.length),
    sockets: Math.max(0, Math.min(perUser, SOCKETS - i * perUser)),
  }))
  const child = fork(path.join(root, 'bench/soak-crowd.mjs'), [], {
    env: { ...process.env, CROWD_URL: base, CROWD_USERS: JSON.stringify(list) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const socketsOf = new Map(users.map((u, i) => [u, list[i].sockets]))
  let waiting = []
  child.on('message', (message) => {
    const resolvers = waiting
    waiting = []
    for (const resolve of resolvers) resolve(message)
  })
  const next = () => new Promise((resolve) => waiting.push(resolve))
  return {
    socketsOf,
    ready: next(),
    async report() {
      const answer = next()
      child.send({ type: 'report' })
      return answer
    },
    async close() {
      child.send({ type: 'close' })
      await new Promise((resolve) => child.once('exit', resolve))
    },
  }
}

/** One evening on one server: returns the per-minute rows and the totals. */
let PHOTO_BYTES = 0

async function soak(label, env, port) {
  const bytes = await photo()
  PHOTO_BYTES = bytes.length
  const picture = multipart(bytes)
  const app = await startServer(env, port)
  let crowd
  try {
    console.log(`${label}: populating`)
    const { users, circles } = await populate(app, picture)
    const { base } = app
    crowd = startCrowd(base, users)
    const ready = await crowd.ready
    console.log(`${label}: ${ready.connected} sockets connected; ${MINUTES} min at ${RATE} operations/s`)
    // Sockets listening in each circle's room: every member's sockets.
    const listeners = new Map(
      circles.map((c) => [c.id, c.members.reduce((sum, m) => sum + crowd.socketsOf.get(m), 0)]),
    )
    const allItems = circles.flatMap((c) => c.items)
    const pending = []
    const minutes = Array.from({ length: MINUTES }, () => ({
      latencies: [],
      withoutUploads: [],
      errors: 0,
      skipped: 0,
      expectedEvents: 0,
      confirmations: 0,
      rss: [],
      load: [],
      cpu: 0,
    }))
    const errorSamples = []
    const byName = new Map()
    let started = 0
    let inFlight = 0
    const t0 = performance.now()
    const minuteOf = (t) => Math.min(MINUTES - 1, Math.floor((t - t0) / 60_000))

    /** One request: its latency in the minute it was sent in; any status but `expect` is an error. */
    async function request(name, method, url, { auth, body, contentType, expect = 200 } = {}) {
      const sent = performance.now()
      const minute = minutes[minuteOf(sent)]
      try {
        const res = await fetch(`${base}${url}`, {
          method,
          headers: {
            ...auth,
            ...(body ? { 'content-type': contentType ?? 'application/json' } : {}),
          },
          body: body ? (contentType ? body : JSON.stringify(body)) : undefined,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        })
        const text = await res.text()
        minute.latencies.push(performance.now() - sent)
        if (name !== 'picture upload') minute.withoutUploads.push(performance.now() - sent)
        if (!byName.has(name)) byName.set(name, [])
        byName.get(name).push(performance.now() - sent)
        if (res.status !== expect) {
          minute.errors++
          if (errorSamples.length < 10) errorSamples.push(`${name}: ${res.status} ${text.slice(0, 200)}`)
          return undefined
        }
        return text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : {}
      } catch (error) {
        minute.latencies.push(performance.now() - sent)
        minute.errors++
        if (errorSamples.length < 10) errorSamples.push(`${name}: ${error.message}`)
        // No answer (timeout, connection lost): whether the server did it is unknown.
        return null
      }
    }
    const eventIn = (circleId) => {
      minutes[minuteOf(performance.now())].expectedEvents += listeners.get(circleId)
    }
    // A write that got no answer may or may not have happened: its event may arrive.
    let uncertainEvents = 0
    const unknownIn = (circleId, outcome) => {
      if (outcome === null) uncertainEvents += listeners.get(circleId)
    }
    const member = () => pick(users)
    const circleOf = (user) => pick(circles.filter((c) => c.members.includes(user)))

    const operations = {
      'sign-in': (u) =>
        request('sign-in', 'POST', '/api/users/login', { body: { email: u.email, password: u.password } }),
      'dashboard stats': (u) => request('dashboard', 'GET', '/api/dashboard/stats', { auth: u.auth }),
      'recent activities': (u) => request('activities', 'GET', '/api/activities/recent', { auth: u.auth }),
      'circles list': (u) => request('circles', 'GET', '/api/circles', { auth: u.auth }),
      'circle page': (u) => request('circle', 'GET', `/api/circles/${circleOf(u).id}`, { auth: u.auth }),
      'circle items': (u) =>
        request('circle items', 'GET', `/api/items/circle/${circleOf(u).id}`, { auth: u.auth }),
      'item page': (u) =>
        request('item', 'GET', `/api/items/${pick(circleOf(u).items).id}`, { auth: u.auth }),
      'item handovers': (u) =>
        request('item handovers', 'GET', `/api/handovers/item/${pick(circleOf(u).items).id}`, {
          auth: u.auth,
        }),
      thumbnail: (u) => {
        const withPicture = circleOf(u).items.filter((i) => i.thumbnailUrl)
        return request('thumbnail', 'GET', pick(withPicture).thumbnailUrl, { auth: u.auth })
      },
      'circle ledger': (u) =>
        request('ledger', 'GET', `/api/blockchain/circle/${circleOf(u).id}`, { auth: u.auth }),
      'ledger checkpoint': (u) =>
        request('checkpoint', 'GET', `/api/ledger/${circleOf(u).id}/checkpoint`, { auth: u.auth }),
      'my handovers': (u) => request('my handovers', 'GET', '/api/handovers', { auth: u.auth }),
      'item with picture': async (u) => {
        const circle = circleOf(u)
        const created = await request('item create', 'POST', '/api/items', {
          auth: u.auth,
          body: { name: `Evening thing ${randomBytes(4).toString('hex')}`, circleId: circle.id },
          expect: 201,
        })
        if (!created) return unknownIn(circle.id, created)
        eventIn(circle.id)
        const entry = { id: created.item.id, circleId: circle.id, owner: u, busy: true }
        circle.items.push(entry)
        allItems.push(entry)
        const uploaded = await request('picture upload', 'POST', `/api/items/${entry.id}/image`, {
          auth: u.auth,
          body: picture.body,
          contentType: picture.contentType,
        })
        entry.busy = false
        if (!uploaded) return unknownIn(circle.id, uploaded)
        eventIn(circle.id)
        entry.thumbnailUrl = uploaded.thumbnailUrl
      },
      'handover request': async () => {
        const item = pick(allItems.filter((i) => !i.busy))
        if (!item) return
        const circle = circles.find((c) => c.id === item.circleId)
        const receiver = pick(circle.members.filter((m) => m !== item.owner))
        item.busy = true
        const created = await request('handover request', 'POST', '/api/handovers', {
          auth: item.owner.auth,
          body: { itemId: item.id, receiverId: receiver.user.id },
          expect: 201,
        })
        if (!created) {
          // Unanswered, it may be pending on the server: the item stays out of later requests.
          if (created === null) return unknownIn(circle.id, created)
          item.busy = false
          return
        }
        eventIn(circle.id)
        pending.push({ id: created.handover.id, item, receiver })
      },
      'handover confirmation': async () => {
        const handover = pending.shift()
        if (!handover) return operations['circle items'](member())
        const confirmed = await request(
          'handover confirmation',
          'PUT',
          `/api/handovers/${handover.id}/status`,
          { auth: handover.receiver.auth, body: { status: 'CONFIRMED' } },
        )
        if (confirmed) {
          eventIn(handover.item.circleId)
          minutes[minuteOf(performance.now())].confirmations++
          handover.item.owner = handover.receiver
        } else if (confirmed === null) {
          // Unanswered: who holds the item now is unknown; it stays out of later requests.
          return unknownIn(handover.item.circleId, confirmed)
        }
        handover.item.busy = false
      },
    }

    function chooseOperation() {
      let roll = Math.random() * MIX_TOTAL
      for (const [name, weight] of MIX) {
        roll -= weight
        if (roll < 0) return name
      }
      return MIX[0][0]
    }

    // Resident memory and load every 5 s; the socket counts at each minute's end.
    const received = []
    const sampler = setInterval(async () => {
      const now = performance.now()
      if (now - t0 >= MINUTES * 60_000) return
      const minute = minutes[minuteOf(now)]
      minute.rss.push(await rssMb(app.pid))
      minute.load.push(os.loadavg()[0])
    }, 5000)
    const reporter = (async () => {
      let cpuBefore = await cpuSeconds(app.pid)
      for (let m = 1; m <= MINUTES; m++) {
        await sleep(t0 + m * 60_000 - performance.now())
        received.push(await crowd.report())
        const row = minutes[m - 1]
        if (process.env.SOAK_HEAP_SNAPSHOTS) app.child.kill('SIGUSR2')
        const cpuNow = await cpuSeconds(app.pid)
        row.cpu = (100 * (cpuNow - cpuBefore)) / 60
        cpuBefore = cpuNow
        const sorted = [...row.latencies].sort((a, b) => a - b)
        console.log(
          `${label} minute ${m}: ${row.latencies.length} requests, ${row.errors} errors, p50 ${percentile(sorted, 50)?.toFixed(1)} ms, p99 ${percentile(sorted, 99)?.toFixed(1)} ms, RSS ${row.rss.at(-1)?.toFixed(0)} MB, server CPU ${row.cpu.toFixed(0)} %, load ${os.loadavg()[0].toFixed(2)}`,
        )
      }
    })()

    // The open loop: operation k is due at t0 + k / RATE.
    const running = new Set()
    const end = t0 + MINUTES * 60_000
    for (let k = 0; ; k++) {
      const due = t0 + (k * 1000) / RATE
      if (due >= end) break
      const wait = due - performance.now()
      if (wait > 0) await sleep(wait)
      if (inFlight >= CONCURRENCY) {
        minutes[minuteOf(performance.now())].skipped++
        continue
      }
      started++
      inFlight++
      const op = operations[chooseOperation()](member()).finally(() => {
        inFlight--
        running.delete(op)
      })
      running.add(op)
    }
    await Promise.all(running)
    await reporter
    clearInterval(sampler)

    // Drain: every event of an answered request reaches its sockets (bounded wait).
    const expectedTotal = minutes.reduce((sum, m) => sum + m.expectedEvents, 0)
    const totalOf = (report) => Object.values(report.itemUpdates).reduce((a, b) => a + b, 0)
    let final = await crowd.report()
    for (let i = 0; i < 50 && totalOf(final) < expectedTotal + uncertainEvents; i++) {
      await sleep(200)
      final = await crowd.report()
    }
    const rows = minutes.map((m, i) => {
      const sorted = [...m.latencies].sort((a, b) => a - b)
      const before = i === 0 ? 0 : totalOf(received[i - 1])
      return {
        minute: i + 1,
        requests: m.latencies.length,
        errors: m.errors,
        skipped: m.skipped,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        p99WithoutUploads: percentile(
          [...m.withoutUploads].sort((a, b) => a - b),
          99,
        ),
        rss: m.rss.reduce((a, b) => a + b, 0) / Math.max(1, m.rss.length),
        rssMax: Math.max(...m.rss),
        cpu: m.cpu,
        load: m.load.reduce((a, b) => a + b, 0) / Math.max(1, m.load.length),
        confirmations: m.confirmations,
        eventsReceived: totalOf(received[i]) - before,
        eventsExpected: m.expectedEvents,
      }
    })
    const operationsSummary = [...byName].map(([name, samples]) => {
      const sorted = samples.sort((a, b) => a - b)
      return { name, count: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) }
    })
    return {
      label,
      rows,
      operationsSummary,
      started,
      errorSamples,
      sockets: ready.connected,
      disconnects: final.disconnects,
      eventsExpected: expectedTotal,
      eventsReceived: totalOf(final),
      uncertainEvents,
      otherEvents: final.otherEvents,
      items: allItems.length,
      users: users.length,
      circles: circles.length,
    }
  } finally {
    if (crowd) await crowd.close()
    await app.stop()
  }
}

function targets(result) {
  const { rows } = result
  const errors = rows.reduce((sum, r) => sum + r.errors, 0)
  const requests = rows.reduce((sum, r) => sum + r.requests, 0)
  const second = rows[1]
  const last = rows.at(-1)
  const memory =
    rows.length >= 3
      ? { value: last.rss / second.rss, pass: Math.abs(last.rss / second.rss - 1) <= 0.1 }
      : null
  const p99 = rows.length >= 2 ? { value: last.p99 / rows[0].p99, pass: last.p99 <= 1.5 * rows[0].p99 } : null
  return {
    errors,
    requests,
    zeroErrors: errors === 0,
    memory,
    p99,
    events:
      result.eventsReceived >= result.eventsExpected &&
      result.eventsReceived <= result.eventsExpected + result.uncertainEvents,
  }
}

const verdict = (pass) => (pass === null || pass === undefined ? 'n/a (too short)' : pass ? 'PASS' : 'FAIL')

function section(results, machine) {
  const lines = [
    '<!-- soak:start -->',
    '## Soak (`npm run bench:soak`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine.cores} cores (${machine.model}), ${machine.memoryGb} GB,`,
    `Node ${process.version}. The load average (1 min) during each minute is in the tables (well above 1, other`,
    `work shared the ${machine.cores} cores and the latencies say more about it than about Circles). ${MINUTES} minutes per database, the built`,
    `server (\`apps/server/dist/server.js\`) as its own process, \`RATE_LIMITS=off\` and \`PLAN_LIMITS=off\``,
    `(the soak's 40 users come from one address), default log level. Open loop: ${RATE} operations a second`,
    `at fixed intervals, at most ${CONCURRENCY} in flight (an operation due while ${CONCURRENCY} are open is skipped and`,
    'counted, never queued). The mix, out of 100 operations:',
    MIX.map(([name, weight]) => `${name} ${weight}`).join(', ') + '.',
    `An item with a picture is two requests (create, then a 2000x1500 JPEG upload of ${(PHOTO_BYTES / 1024).toFixed(0)} KB, re-encoded by the`,
    'server); every handover request is later confirmed by its receiver (a ledger block each). Before the',
    `clock starts: ${USERS} verified users, ${CIRCLES} circles, each user a member of two, ${ITEMS_PER_MEMBERSHIP} items per membership, one`,
    `with a picture; then ${SOCKETS} sockets (websocket, ${Math.ceil(SOCKETS / USERS)} per user, held by a separate process). "Events" counts`,
    'the `item_update` messages the sockets received against those the answered requests should have sent',
    "(each to every socket of the circle's members); a request's latency counts in the minute it was sent.",
    "RSS is the mean of the server process's VmRSS sampled every 5 s (on the embedded default it includes",
    'the database, PGlite, which runs inside the server; on PostgreSQL the database is another process).',
    'About 2 % of the requests are picture uploads (each about a CPU-second), so the p99 of all requests is',
    'mostly theirs; "p99 without uploads" is every other request\'s.',
    '"Server CPU" is the server process\'s CPU time in the minute over the minute (100 % = one core).',
    'Design and reasons: docs/decisions/0044-soak.md.',
  ]
  for (const result of results) {
    const t = targets(result)
    const confirmations = result.rows.reduce((sum, r) => sum + r.confirmations, 0)
    lines.push(
      '',
      `### ${result.label}`,
      '',
      '| minute | requests | errors | error rate | skipped | p50 ms | p99 ms | p99 ms without uploads | RSS MB (mean) | RSS MB (max) | confirmations | events received / expected | server CPU | load avg |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...result.rows.map(
        (r) =>
          `| ${r.minute} | ${r.requests} | ${r.errors} | ${((100 * r.errors) / Math.max(1, r.requests)).toFixed(2)} % | ${r.skipped} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.p99WithoutUploads.toFixed(1)} | ${r.rss.toFixed(0)} | ${r.rssMax.toFixed(0)} | ${r.confirmations} | ${r.eventsReceived} / ${r.eventsExpected} | ${r.cpu.toFixed(0)} % | ${r.load.toFixed(2)} |`,
      ),
      '',
      `${t.requests} requests (${(t.requests / (MINUTES * 60)).toFixed(1)} a second), ${confirmations} confirmations (${(confirmations / (MINUTES * 60)).toFixed(2)} a second), ${result.items} items at the end; ${result.sockets} sockets connected, ${result.disconnects} disconnected during the run; ${result.eventsReceived} of ${result.eventsExpected} \`item_update\` messages received after the run (${result.otherEvents} other messages: \`handover_update\`, \`new_activity\`, \`connected\`).`,
      '',
      '| target | measured | result |',
      '|---|---|---|',
      `| 0 errors | ${t.errors} of ${t.requests} | ${verdict(t.zeroErrors)} |`,
      `| memory flat: last minute's RSS within 10 % of the second's | ${t.memory ? `${t.memory.value.toFixed(3)}×` : '—'} | ${verdict(t.memory?.pass)} |`,
      `| p99 of the last minute at most 1.5× the first's | ${t.p99 ? `${t.p99.value.toFixed(2)}×` : '—'} | ${verdict(t.p99?.pass)} |`,
      `| every socket event delivered | ${result.eventsReceived} / ${result.eventsExpected}${result.uncertainEvents ? ` (+ up to ${result.uncertainEvents} of unanswered writes)` : ''} | ${verdict(t.events)} |`,
    )
    lines.push(
      '',
      '| request (whole run) | answered | p50 ms | p99 ms |',
      '|---|---:|---:|---:|',
      ...result.operationsSummary.map(
        (o) => `| ${o.name} | ${o.count} | ${o.p50.toFixed(1)} | ${o.p99.toFixed(1)} |`,
      ),
    )
    if (result.errorSamples.length) {
      lines.push('', 'First errors:', '', ...result.errorSamples.map((e) => `- \`${e.replace(/`/g, "'")}\``))
    }
  }
  lines.push('<!-- soak:end -->')
  return lines.join('\n')
}

const results = []
let port = PORT
for (const database of DATABASES) {
  if (database === 'embedded') {
    results.push(await soak('Embedded default (PGlite, temporary DATA_DIR)', {}, port++))
  } else if (database === 'postgres') {
    let fresh
    try {
      fresh = await freshPostgresDatabase(POSTGRES, 'hsoak')
    } catch (error) {
      console.log(`PostgreSQL at ${new URL(POSTGRES).host} is not reachable (${error.message}); skipped`)
      continue
    }
    try {
      results.push(
        await soak(
          `PostgreSQL (${new URL(POSTGRES).host}, a fresh database)`,
          { DATABASE_URL: fresh.url },
          port++,
        ),
      )
    } finally {
      await fresh.drop()
    }
  }
}
const cpus = os.cpus()
const text = section(results, {
  cores: cpus.length,
  model: cpus[0]?.model.trim() ?? 'unknown CPU',
  memoryGb: (os.totalmem() / 2 ** 30).toFixed(0),
})
if (process.env.SOAK_WRITE !== 'off') await writeSection('soak', text)
console.log(text)
process.exit(0)

// Condition evidence benchmark (issue 28, docs/decisions/0057): the time a receiver's confirmation takes
// when the handover carries 8 photos (4 from each side, uploaded beforehand: their digests are taken at
// upload, not under the ledger lock) against a confirmation without any, in the same run on the same
// server, interleaved. Embedded database by default; DATABASE_URL runs it on PostgreSQL.
// Written to bench/README.md.
import os from 'node:os'
import sharp from 'sharp'
import { freshPostgresDatabase, json, startApp, verifiedUser, writeSection } from './lib.mjs'

const ROUNDS = Number(process.env.BENCH_CONDITION_ROUNDS ?? 30)
const PER_SIDE = 4

/** A phone-sized JPEG, different each time (the digest must differ per photo). */
let seed = 0
async function photo() {
  seed += 1
  const svg = `<svg width="1600" height="1200"><rect width="1600" height="1200" fill="rgb(${seed % 255},120,40)"/><circle cx="${(seed * 37) % 1600}" cy="600" r="300" fill="#2050c0"/></svg>`
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer()
}

async function upload(base, who) {
  const form = new FormData()
  form.append('image', new Blob([await photo()], { type: 'image/jpeg' }), 'condition.jpg')
  const res = await fetch(`${base}/api/handovers/photos`, { method: 'POST', headers: who.auth, body: form })
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`)
  return (await res.json()).photo.id
}

async function join(base, admin, circleId, member) {
  const invited = await json(
    `${base}/api/circles/${circleId}/invitations/qr`,
    { email: member.email },
    admin.auth,
  )
  const res = await fetch(`${base}/api/circles/invitations/${invited.body.invitation.token}`, {
    method: 'POST',
    headers: member.auth,
  })
  if (!res.ok) throw new Error(`join: ${res.status}`)
}

/** One handover request, with the sender's photos and note or without; the receiver's photos ready. */
async function prepare(base, owner, receiver, circleId, withEvidence) {
  const item = await json(`${base}/api/items`, { name: `Thing ${seed}`, circleId }, owner.auth)
  const photoIds = withEvidence
    ? await Promise.all(Array.from({ length: PER_SIDE }, () => upload(base, owner)))
    : []
  const request = await json(
    `${base}/api/handovers`,
    {
      itemId: item.body.item.id,
      receiverId: receiver.user.id,
      ...(withEvidence ? { condition: { photoIds, note: 'Scratch on the left side.' } } : {}),
    },
    owner.auth,
  )
  if (request.status !== 201) throw new Error(`request: ${request.status} ${JSON.stringify(request.body)}`)
  const own = withEvidence
    ? await Promise.all(Array.from({ length: PER_SIDE }, () => upload(base, receiver)))
    : []
  return {
    id: request.body.handover.id,
    body: {
      status: 'CONFIRMED',
      ...(withEvidence ? { condition: { photoIds: own, note: 'Dent on the lid.' } } : {}),
    },
  }
}

async function confirm(base, receiver, prepared) {
  const started = performance.now()
  const res = await fetch(`${base}/api/handovers/${prepared.id}/status`, {
    method: 'PUT',
    headers: { ...receiver.auth, 'content-type': 'application/json' },
    body: JSON.stringify(prepared.body),
  })
  const ms = performance.now() - started
  if (!res.ok) throw new Error(`confirm: ${res.status} ${await res.text()}`)
  return ms
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
}

/** One server (PostgreSQL at `databaseUrl`, else embedded): confirmation times without and with evidence. */
async function measure(databaseUrl) {
  const database = databaseUrl ? await freshPostgresDatabase(databaseUrl) : null
  const app = await startApp({ PLAN_LIMITS: 'off', ...(database ? { DATABASE_URL: database.url } : {}) })
  try {
    const { base } = app
    const owner = await verifiedUser(base, app, 'owner@example.com')
    const receiver = await verifiedUser(base, app, 'receiver@example.com')
    const circle = (
      await json(`${base}/api/circles`, { name: 'Condition bench', description: '' }, owner.auth)
    ).body.circle
    await join(base, owner, circle.id, receiver)
    const plain = []
    const evidence = []
    // A warm-up pair, not counted (first picture decoding, first prepared statements).
    await confirm(base, receiver, await prepare(base, owner, receiver, circle.id, true))
    await confirm(base, receiver, await prepare(base, owner, receiver, circle.id, false))
    // Every request and upload first, then the confirmations, interleaved: what is timed is the
    // confirmation alone, not the aftermath of the uploads just before it (picture buffers, stored files).
    const pairs = []
    for (let round = 0; round < ROUNDS; round++) {
      pairs.push([
        await prepare(base, owner, receiver, circle.id, false),
        await prepare(base, owner, receiver, circle.id, true),
      ])
    }
    for (const [a, b] of pairs) {
      plain.push(await confirm(base, receiver, a))
      evidence.push(await confirm(base, receiver, b))
    }
    const verify = await json(`${base}/api/blockchain/verify/${circle.id}`, undefined, owner.auth)
    if (!verify.body.valid) throw new Error(`verify: ${JSON.stringify(verify.body).slice(0, 300)}`)
    const result = {
      name: database ? 'PostgreSQL' : 'embedded (PGlite)',
      plain: [quantile(plain, 0.5), quantile(plain, 0.9)],
      evidence: [quantile(evidence, 0.5), quantile(evidence, 0.9)],
    }
    console.log(
      `${result.name}: plain ${result.plain[0].toFixed(1)} ms, with 8 photos ${result.evidence[0].toFixed(1)} ms (${(result.evidence[0] / result.plain[0]).toFixed(2)}×)`,
    )
    return result
  } finally {
    await app.stop()
    await database?.drop()
  }
}

const results = [await measure(null)]
if (process.env.DATABASE_URL) results.push(await measure(process.env.DATABASE_URL))
const ms = (value) => `${value.toFixed(1)} ms`
const rows = results
  .flatMap((r) => [
    `| ${r.name} | without evidence (baseline) | ${ms(r.plain[0])} | ${ms(r.plain[1])} | 1.00 |`,
    `| ${r.name} | with 8 photos and 2 notes | ${ms(r.evidence[0])} | ${ms(r.evidence[1])} | ${(r.evidence[0] / r.plain[0]).toFixed(2)} |`,
  ])
  .join('\n')
await writeSection(
  'condition',
  `<!-- condition:start -->
## Condition evidence (\`npm run bench:condition\`)

${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores; the embedded database, and PostgreSQL when
\`DATABASE_URL\` is set. ${ROUNDS} rounds on one server each, interleaved: a receiver confirms a handover
without any evidence (baseline), then one carrying 8 photos (4 the sender attached, 4 the receiver
attaches with the answer) and both notes. Every request and photo is uploaded before the first timed
confirmation (a photo's SHA-256 is taken at upload). Time of the \`PUT /api/handovers/:id/status\`
request over HTTP; the block commits to every digest and note.

| database | confirmation | median | p90 | ratio (median) |
|---|---|---:|---:|---:|
${rows}

Target: at most 1.2. The chain verified afterwards, the stored photos hashed against their blocks.
<!-- condition:end -->`,
)

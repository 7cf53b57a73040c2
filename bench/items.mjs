// Items benchmark: a circle's items page with 10 items and their thumbnails (requests per second of the
// list and of a thumbnail, bytes per page view with thumbnails against full pictures), and picture
// upload throughput (a 1.5 MB phone photo, re-encoded by sharp), each beside a bare Fastify baseline
// measured in the same run. Written to bench/README.md. Embedded PGlite, rate limits off.
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import sharp from 'sharp'
import {
  children,
  CONNECTIONS,
  DURATION,
  json,
  run,
  startApp,
  startBaseline,
  verifiedUser,
  writeSection,
} from './lib.mjs'

const ITEMS = 10
const UPLOAD_CONNECTIONS = 2

/** A phone-like photo: 3000x2000 of softened noise (real photos do not compress like flat colour). */
async function phonePhoto() {
  const width = 3000
  const height = 2000
  const noise = randomBytes(width * height * 3)
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .blur(1.2)
    .jpeg({ quality: 85 })
    .toBuffer()
}

function multipartBody(bytes) {
  const boundary = '----circlesbench'
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { body, contentType: `multipart/form-data; boundary=${boundary}` }
}

async function bytesOf(url, headers) {
  const res = await fetch(url, { headers })
  return (await res.arrayBuffer()).byteLength
}

const hello = await startBaseline()
const app = await startApp({ PLAN_LIMITS: 'off' })
try {
  const { base } = app
  const { auth } = await verifiedUser(base, app)
  const circle = await json(`${base}/api/circles`, { name: 'Bench circle', description: 'Items' }, auth)
  const circleId = circle.body.circle.id
  const photo = await phonePhoto()
  const upload = multipartBody(photo)
  const items = []
  for (let i = 0; i < ITEMS; i++) {
    const created = await json(`${base}/api/items`, { name: `Thing ${i}`, circleId }, auth)
    const res = await fetch(`${base}/api/items/${created.body.item.id}/image`, {
      method: 'POST',
      headers: { ...auth, 'content-type': upload.contentType },
      body: upload.body,
    })
    if (!res.ok) throw new Error(`upload failed: ${res.status} ${await res.text()}`)
    items.push({ id: created.body.item.id, ...(await res.json()) })
  }

  // Bytes a phone downloads for one view of the circle's items page.
  const listBytes = await bytesOf(`${base}/api/items/circle/${circleId}`, auth)
  let thumbBytes = 0
  let fullBytes = 0
  for (const item of items) {
    thumbBytes += await bytesOf(`${base}${item.thumbnailUrl}`, auth)
    fullBytes += await bytesOf(`${base}${item.imageUrl}`, auth)
  }

  const reads = [
    await run('bare Fastify GET /hello (baseline)', { url: `http://127.0.0.1:${hello.value}/hello` }),
    await run(`GET /api/items/circle/:id (${ITEMS} items)`, {
      url: `${base}/api/items/circle/${circleId}`,
      headers: auth,
    }),
    await run('GET a thumbnail (480 px WebP, members only)', {
      url: `${base}${items[0].thumbnailUrl}`,
      headers: auth,
    }),
  ]
  const uploadOptions = (url, extra = {}) => ({
    url,
    method: 'POST',
    body: upload.body,
    headers: { 'content-type': upload.contentType, ...extra },
    connections: UPLOAD_CONNECTIONS,
  })
  const uploads = [
    await run(
      'bare Fastify: receive the same multipart photo (baseline)',
      uploadOptions(`http://127.0.0.1:${hello.value}/upload`),
    ),
    await run(
      'POST /api/items/:id/image (check, re-encode to 1920 px + 480 px, store)',
      uploadOptions(`${base}/api/items/${items[0].id}/image`, auth),
    ),
  ]

  const kb = (n) => `${(n / 1024).toFixed(1)} KB`
  const rows = (results) => {
    const baseline = results[0].rps
    return results.map(
      (r) =>
        `| ${r.title} | ${r.rps.toFixed(r.rps < 100 ? 1 : 0)} | ${(r.rps / baseline).toFixed(3)} | ${r.p50} | ${r.p99} |`,
    )
  }
  const section = [
    '<!-- items:start -->',
    '## Items and pictures (`npm run bench:items`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores, Node ${process.version}, ${DURATION} s per`,
    `scenario, loopback, PGlite, rate limits off; reads with ${CONNECTIONS} connections, uploads with ${UPLOAD_CONNECTIONS}.`,
    `A circle of ${ITEMS} items, each with a ${kb(photo.length)} 3000x2000 JPEG uploaded. Ratios are to the bare`,
    'Fastify baseline measured in the same run right before each table.',
    '',
    '| scenario | req/s | ratio to baseline | p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|',
    ...rows(reads),
    '',
    '| uploads | uploads/s | ratio to baseline | p50 ms | p99 ms |',
    '|---|---:|---:|---:|---:|',
    ...rows(uploads),
    '',
    '| one view of the items page | bytes |',
    '|---|---:|',
    `| the list (JSON) | ${kb(listBytes)} |`,
    `| ${ITEMS} thumbnails (what the cards load) | ${kb(thumbBytes)} |`,
    `| ${ITEMS} full pictures (what they would load without thumbnails) | ${kb(fullBytes)} |`,
    `| page view with thumbnails, ratio to full pictures | ${((listBytes + thumbBytes) / (listBytes + fullBytes)).toFixed(3)} |`,
    '<!-- items:end -->',
  ].join('\n')
  await writeSection('items', section)
  console.log(section)
} finally {
  await app.stop()
  for (const child of children) child.kill('SIGTERM')
}

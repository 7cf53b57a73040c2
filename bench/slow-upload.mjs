// Slow clients against the built server with its default timeouts (docs/decisions/0026): a phone
// uploading a 5 MB picture at 1 Mbit/s (and at 500 and 250 kbit/s) over a throttled socket that writes
// a chunk every 100 ms, beside five connections sending a header line every 5 s and five sending their
// body a byte every 5 s, all at the same time. Reports each upload's time as a ratio to the time the
// line itself needs (bytes × 8 / rate), and when each trickling connection was closed. Embedded PGlite,
// rate limits off. Written to bench/README.md.
import net from 'node:net'
import os from 'node:os'
import sharp from 'sharp'
import { children, json, startApp, verifiedUser, writeSection } from './lib.mjs'

const TICK_MS = 100
const TRICKLE_MS = 5000

/** A picture just under the 5 MB limit: noise does not compress, so it stays that big. */
async function fiveMegabytePicture() {
  const bytes = await sharp({
    create: {
      width: 2450,
      height: 1900,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .jpeg({ quality: 97 })
    .toBuffer()
  if (bytes.length > 5 * 1024 * 1024) throw new Error(`picture ${bytes.length} bytes, over the limit`)
  return bytes
}

/** Opens a socket; resolves `closed` with the answer and the time from open to close. */
function open(base) {
  const { hostname, port } = new URL(base)
  const socket = net.connect({ host: hostname, port: Number(port) })
  const openedAt = Date.now()
  const received = []
  socket.on('data', (chunk) => received.push(chunk))
  socket.on('error', () => undefined)
  const closed = new Promise((resolve) =>
    socket.once('close', () =>
      resolve({
        answer: Buffer.concat(received).toString('latin1'),
        seconds: (Date.now() - openedAt) / 1000,
      }),
    ),
  )
  return { socket, closed }
}

/** Writes `bytes` at `bitsPerSecond`, a chunk every TICK_MS, as a throttled phone link would. */
async function throttledUpload(base, auth, itemId, picture, bitsPerSecond) {
  const boundary = '----circlesslowupload'
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    picture,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  const head = Buffer.from(
    `POST /api/items/${itemId}/image HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n` +
      `Authorization: ${auth.authorization}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\n` +
      `Content-Length: ${body.length}\r\n\r\n`,
  )
  const all = Buffer.concat([head, body])
  const perTick = Math.round((bitsPerSecond / 8) * (TICK_MS / 1000))
  const { socket, closed } = open(base)
  await new Promise((resolve) => socket.once('connect', resolve))
  let at = 0
  const timer = setInterval(() => {
    if (socket.destroyed || at >= all.length) return clearInterval(timer)
    socket.write(all.subarray(at, at + perTick))
    at += perTick
  }, TICK_MS)
  const { answer, seconds } = await closed
  clearInterval(timer)
  const lineSeconds = (all.length * 8) / bitsPerSecond
  return {
    rate: `${bitsPerSecond / 1000} kbit/s`,
    status: answer.match(/^HTTP\/1\.1 (\d+)/)?.[1] ?? `closed after ${Math.round((at / all.length) * 100)} %`,
    seconds,
    lineSeconds,
    bytes: all.length,
  }
}

/** Five connections sending `chunks` one every TRICKLE_MS; resolves with when each was closed. */
async function trickle(base, chunks) {
  const clients = Array.from({ length: 5 }, () => open(base))
  const timers = clients.map(({ socket }) => {
    let next = 0
    const send = () => {
      if (!socket.destroyed && next < chunks.length) socket.write(chunks[next++])
    }
    socket.once('connect', send)
    return setInterval(send, TRICKLE_MS)
  })
  const results = await Promise.all(clients.map((c) => c.closed))
  timers.forEach(clearInterval)
  return results.map((r) => ({
    status: r.answer.match(/^HTTP\/1\.1 (\d+)/)?.[1] ?? 'none',
    seconds: r.seconds,
  }))
}

const app = await startApp({ PLAN_LIMITS: 'off' })
try {
  const { base } = app
  const { auth } = await verifiedUser(base, app)
  const circle = await json(`${base}/api/circles`, { name: 'Slow phones', description: 'Uploads' }, auth)
  const circleId = circle.body.circle.id
  const picture = await fiveMegabytePicture()
  if (picture.length < 4.5 * 1024 * 1024) throw new Error(`picture only ${picture.length} bytes`)
  const itemIds = []
  for (let i = 0; i < 3; i++) {
    itemIds.push((await json(`${base}/api/items`, { name: `Photo ${i}`, circleId }, auth)).body.item.id)
  }

  const headerLines = ['GET /api/health HTTP/1.1\r\n', 'Host: localhost\r\n']
  for (let i = 0; i < 100; i++) headerLines.push(`X-Slow-${i}: ${i}\r\n`)
  const loginBody = JSON.stringify({ email: 'slow@example.com', password: 'x'.repeat(64) })
  const bodyBytes = [
    `POST /api/users/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${loginBody.length}\r\n\r\n`,
    ...loginBody,
  ]

  const [uploads, headers, bodies] = await Promise.all([
    Promise.all(
      [1_000_000, 500_000, 250_000].map((rate, i) => throttledUpload(base, auth, itemIds[i], picture, rate)),
    ),
    trickle(base, headerLines),
    trickle(base, bodyBytes),
  ])

  const date = new Date().toISOString().slice(0, 10)
  const rows = uploads.map(
    (u) =>
      `| ${(u.bytes / 1024 / 1024).toFixed(2)} MiB picture at ${u.rate} | ${u.status} | ${u.seconds.toFixed(1)} | ${u.lineSeconds.toFixed(1)} | ${(u.seconds / u.lineSeconds).toFixed(3)} |`,
  )
  const range = (list) => {
    const s = list.map((r) => r.seconds)
    return `${Math.min(...s).toFixed(1)}–${Math.max(...s).toFixed(1)} s, answers ${[...new Set(list.map((r) => r.status))].join(', ')}`
  }
  const section = `<!-- slow-upload:start -->
## Slow clients (\`npm run bench:slow-upload\`)

Measured ${date} on ${os.cpus().length} cores, Node ${process.version}, against the built server with its
default timeouts (headers 10 s, body 20 s plus a second per 500 bytes, whole request 120 s, idle 60 s;
docs/decisions/0026). Each upload is a raw socket writing a chunk every ${TICK_MS} ms at the given rate,
all at once, while five connections send a header line every 5 s and five send their body a byte every
5 s. The ratio is the upload's time to the time its line needs (bytes × 8 / rate).

| upload | answer | seconds | line needs (s) | ratio |
|---|---:|---:|---:|---:|
${rows.join('\n')}

- Five connections sending a header line every 5 s: closed after ${range(headers)}.
- Five connections sending their body a byte every 5 s: closed after ${range(bodies)}.

An upload slower than the whole-request deadline allows (\`REQUEST_TIMEOUT_MS\`, 120 s: a 5 MB picture
below about 350 kbit/s) is cut with 408 by design; raise that setting for slower links. The ratio above
1 includes the re-encode after the last byte and the pacing timer's drift on a busy machine (not separated here).
<!-- slow-upload:end -->`
  await writeSection('slow-upload', section)
  console.log(section)
} finally {
  await app.stop()
  for (const child of children) child.kill()
}

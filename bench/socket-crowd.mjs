// Holds CROWD_SIZE socket.io clients open for bench/realtime.mjs, in a process of its own, so receiving
// their messages does not slow the measuring process. CROWD_URLS (comma-separated) are used in turn;
// CROWD_AUTH is the handshake's auth as JSON. Prints "ready <n>" once all are connected.
import { io as connect } from 'socket.io-client'

const urls = process.env.CROWD_URLS.split(',')
const size = Number(process.env.CROWD_SIZE)
const auth = JSON.parse(process.env.CROWD_AUTH)
let received = 0

function open(url) {
  const socket = connect(url, { path: '/socket.io', auth, transports: ['websocket'], reconnection: false })
  socket.onAny(() => received++)
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket))
    socket.once('connect_error', reject)
  })
}

for (let i = 0; i < size; i += 100) {
  await Promise.all(
    Array.from({ length: Math.min(100, size - i) }, (_, j) => open(urls[(i + j) % urls.length])),
  )
}
console.log(`ready ${size}`)
process.on('SIGTERM', () => {
  console.log(`received ${received}`)
  process.exit(0)
})

// Holds the soak's sockets (bench/soak.mjs) in a process of its own, so receiving their messages does not
// slow the measuring process. Forked with IPC; CROWD_URL is the server, CROWD_USERS a JSON list of
// { token, sockets }. Counts `item_update` per circle (what the soak checks against what it expects),
// every other event in total, and disconnections. Answers { type: 'report' } with the counts so far.
import { io as connect } from 'socket.io-client'

const url = process.env.CROWD_URL
const users = JSON.parse(process.env.CROWD_USERS)
const itemUpdates = {}
let otherEvents = 0
let disconnects = 0
let connected = 0
const sockets = []

function open(token) {
  const socket = connect(url, {
    path: '/socket.io',
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
  })
  socket.onAny((event, payload) => {
    if (event === 'item_update') itemUpdates[payload.circleId] = (itemUpdates[payload.circleId] ?? 0) + 1
    else otherEvents++
  })
  socket.on('disconnect', () => {
    disconnects++
    connected--
  })
  return new Promise((resolve, reject) => {
    socket.once('connect', () => {
      connected++
      resolve(socket)
    })
    socket.once('connect_error', reject)
  })
}

const queue = users.flatMap(({ token, sockets: n }) => Array.from({ length: n }, () => token))
for (let i = 0; i < queue.length; i += 100) {
  sockets.push(...(await Promise.all(queue.slice(i, i + 100).map(open))))
}
process.send({ type: 'ready', connected })
process.on('message', (message) => {
  if (message.type === 'report') {
    process.send({ type: 'report', itemUpdates, otherEvents, disconnects, connected })
  } else if (message.type === 'close') {
    for (const socket of sockets) socket.close()
    process.exit(0)
  }
})

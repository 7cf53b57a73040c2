// The baseline of bench/realtime.mjs: a bare socket.io server (no auth, no database work). A client
// joins the room named in its handshake; `relay` sends a payload to a room. With DATABASE_URL it fans
// out through @socket.io/postgres-adapter, as Circles does. Prints "listening <port>".
import { createServer } from 'node:http'
import { createAdapter } from '@socket.io/postgres-adapter'
import pg from 'pg'
import { Server } from 'socket.io'

const http = createServer()
const io = new Server(http, { path: '/socket.io', serveClient: false })
const pool = process.env.DATABASE_URL
  ? new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4 })
  : null
if (pool) io.adapter(createAdapter(pool))
io.on('connection', (socket) => {
  socket.join(String(socket.handshake.auth.room))
  socket.on('relay', ({ room, payload }) => io.to(room).emit('relayed', payload))
})
http.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening ${http.address().port}`)
})

import net from 'node:net'

/** A client on a plain TCP socket, to send a request at whatever pace a test wants. */
export interface RawClient {
  socket: net.Socket
  /** Writes each chunk `everyMs` apart until all are sent or the server closes the connection. */
  trickle(chunks: (string | Buffer)[], everyMs: number): Promise<void>
  /** Resolves when the server closes the connection: what it answered and when, since `openRaw`. */
  closed: Promise<{ answer: string; afterMs: number }>
}

export async function openRaw(url: string): Promise<RawClient> {
  const { hostname, port } = new URL(url)
  const socket = net.connect({ host: hostname, port: Number(port) })
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  const openedAt = Date.now()
  const received: Buffer[] = []
  socket.on('data', (chunk: Buffer) => received.push(chunk))
  // A reset after the server cut us off is how some closes look; the answer read so far still counts.
  socket.on('error', () => undefined)
  const closed = new Promise<{ answer: string; afterMs: number }>((resolve) =>
    socket.once('close', () =>
      resolve({ answer: Buffer.concat(received).toString('latin1'), afterMs: Date.now() - openedAt }),
    ),
  )
  return {
    socket,
    closed,
    trickle(chunks, everyMs) {
      return new Promise((resolve) => {
        let next = 0
        const send = () => {
          if (socket.destroyed || next >= chunks.length) {
            clearInterval(timer)
            resolve()
            return
          }
          socket.write(chunks[next++] as string | Buffer)
        }
        const timer = setInterval(send, everyMs)
        send()
      })
    },
  }
}

/** Splits a buffer into pieces of `size` bytes. */
export function pieces(bytes: Buffer, size: number): Buffer[] {
  const out: Buffer[] = []
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size))
  return out
}

import { createServer } from 'node:net'
import { SMTPServer } from 'smtp-server'

export interface ReceivedMail {
  to: string[]
  raw: string
  /** The raw message with quoted-printable soft breaks and escapes undone, good enough to find links. */
  decoded: string
}

export function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/**
 * A real SMTP server on loopback that keeps what it receives. It can answer slowly: `dataDelayMs`
 * after each message's data before its 250, and `hold()` keeps every answer to DATA back until
 * `release()` (a server that takes the message, then stalls).
 */
export async function startSmtpSink(port = 0, opts: { dataDelayMs?: number } = {}) {
  const received: ReceivedMail[] = []
  const waiters: (() => void)[] = []
  let gate: { promise: Promise<void>; open: () => void } | null = null
  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          decoded: decodeQuotedPrintable(raw),
        })
        waiters.splice(0).forEach((w) => w())
        const answer = () => setTimeout(() => callback(), opts.dataDelayMs ?? 0)
        if (gate) void gate.promise.then(answer)
        else answer()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const address = server.server.address()
  const boundPort = typeof address === 'object' && address ? address.port : port

  async function waitFor(to: string, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = received.find((m) => m.to.includes(to))
      if (found) return found
      if (Date.now() > deadline) throw new Error(`no email to ${to} within ${timeoutMs} ms`)
      await new Promise<void>((resolve) => {
        waiters.push(resolve)
        setTimeout(resolve, 200)
      })
    }
  }

  function hold() {
    let open = () => {}
    const promise = new Promise<void>((resolve) => (open = resolve))
    gate = { promise, open }
  }

  function release() {
    gate?.open()
    gate = null
  }

  return {
    port: boundPort,
    url: `smtp://127.0.0.1:${boundPort}`,
    received,
    waitFor,
    hold,
    release,
    /** How many messages went to this address. */
    countTo: (to: string) => received.filter((m) => m.to.includes(to)).length,
    close: () => {
      release()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A loopback port with nothing listening on it (for an SMTP outage). */
export async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const address = probe.address()
  const port = typeof address === 'object' && address ? address.port : 0
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

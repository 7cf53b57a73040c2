// A real SMTP server on 127.0.0.1 that accepts every message and writes it to a directory as JSON
// ({ to, from, subject, raw, receivedAt }), one file per message, for support/mail.ts to read.
import { randomUUID } from 'node:crypto'
import { rename, writeFile } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { SMTPServer } from 'smtp-server'
import { subjectOf } from './mime'

export interface StoredEmail {
  /** Envelope recipients (RCPT TO), lower-cased. */
  to: string[]
  /** Envelope sender (MAIL FROM). */
  from: string
  /** Decoded Subject header. */
  subject: string
  /** The message as received: headers and undecoded body. */
  raw: string
  /** ISO timestamp. */
  receivedAt: string
}

export interface SmtpSink {
  port: number
  url: string
  close(): Promise<void>
}

export async function startSmtpSink(mailDir: string): Promise<SmtpSink> {
  let sequence = 0
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    banner: 'circles e2e mail sink',
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('error', callback)
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const envelope = session.envelope
        const email: StoredEmail = {
          to: envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
          from: envelope.mailFrom ? envelope.mailFrom.address : '',
          subject: subjectOf(raw),
          raw,
          receivedAt: new Date().toISOString(),
        }
        // Write under a temporary name, then rename, so a reader never sees half a file.
        const name = `${Date.now()}-${String(++sequence).padStart(5, '0')}-${randomUUID().slice(0, 8)}`
        const temporary = join(mailDir, `.${name}.tmp`)
        writeFile(temporary, JSON.stringify(email, null, 2))
          .then(() => rename(temporary, join(mailDir, `${name}.json`)))
          .then(() => callback(), callback)
      })
    },
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  // Log later errors instead of crashing the test runner.
  server.on('error', (error: Error) => console.error(`[smtp-sink] ${error.message}`))
  const { port } = server.server.address() as AddressInfo
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

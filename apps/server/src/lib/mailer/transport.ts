import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import nodemailer, { type SendMailOptions } from 'nodemailer'
import type { FastifyBaseLogger } from 'fastify'
import { maskEmail } from '../logging'
import type { OutboxRow } from './outbox'

export interface MailTransport {
  /** 'sent' over SMTP, or 'logged' when no SMTP server is configured (written to the mail folder). */
  readonly kind: 'sent' | 'logged'
  send(row: OutboxRow): Promise<void>
  close(): void
}

/**
 * True when a failed send certainly left no message with the server: it answered with a reply code
 * (a rejection), or we never got as far as its greeting. Anything else (a timeout or a dropped
 * connection mid-conversation) may have come after the server took the message, and the outbox
 * does not send such an email again.
 */
export function certainlyNotSent(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const e = error as { responseCode?: unknown; syscall?: unknown; code?: unknown; timeoutType?: unknown }
  if (typeof e.responseCode === 'number') return true
  if (e.syscall === 'connect' || e.syscall === 'getaddrinfo' || e.code === 'EDNS') return true
  return e.timeoutType === 'CONNECT_TIMEOUT' || e.timeoutType === 'GREETING_TIMEOUT'
}

/** The domain of the sender's address, for Message-IDs stable per outbox row. */
function messageIdDomain(from: string) {
  return /@([^\s>]+)/.exec(from)?.[1] ?? 'circles.invalid'
}

/** The message as nodemailer builds it, for SMTP and for the files of the mail-folder transport alike. */
function message(row: OutboxRow, domain: string): SendMailOptions {
  return {
    to: row.toAddress,
    replyTo: row.replyTo ?? undefined,
    subject: row.subject,
    text: row.textBody,
    html: row.htmlBody,
    messageId: `<${row.id}@${domain}>`,
    // RFC 8058 one-click unsubscribe for notices: mail clients show their own button.
    ...(row.listUnsubscribe && {
      list: { unsubscribe: row.listUnsubscribe },
      headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    }),
  }
}

/**
 * SMTP with every wait bounded by `timeoutMs` (nodemailer's defaults allow a silent server ten
 * minutes), and a Message-ID stable per outbox row.
 */
export function createSmtpTransport(smtpUrl: string, from: string, timeoutMs = 30_000): MailTransport {
  const transporter = nodemailer.createTransport(
    { url: smtpUrl, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs },
    { from },
  )
  const domain = messageIdDomain(from)
  return {
    kind: 'sent',
    async send(row) {
      await transporter.sendMail(message(row, domain))
    },
    close: () => transporter.close(),
  }
}

/**
 * Without SMTP, a local user still needs the verification link: each email is written as a file,
 * `<dir>/<time>-<kind>-<id>.eml` (open it in a mail program, or read its text part), readable by the
 * server's user only. The log names the file and the masked recipient, never the links: the log is not
 * a mailbox (docs/decisions/0023).
 */
export function createMailFolderTransport(log: FastifyBaseLogger, dir: string, from: string): MailTransport {
  const builder = nodemailer.createTransport(
    { streamTransport: true, buffer: true, newline: 'unix' },
    { from },
  )
  const domain = messageIdDomain(from)
  return {
    kind: 'logged',
    async send(row) {
      const built = await builder.sendMail(message(row, domain))
      await mkdir(dir, { recursive: true, mode: 0o700 })
      const stamp = row.createdAt.toISOString().replace(/[:.]/g, '-')
      const file = path.join(dir, `${stamp}-${row.kind}-${row.id}.eml`)
      await writeFile(file, built.message as Buffer, { mode: 0o600 })
      log.info(
        { emailId: row.id, to: maskEmail(row.toAddress), kind: row.kind, file },
        'email not sent (no SMTP_URL): written to the mail folder',
      )
    },
    close: () => builder.close(),
  }
}

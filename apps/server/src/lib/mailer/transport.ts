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

/** The message as nodemailer builds it, for SMTP and for the files of the mail-folder transport alike. */
function message(row: OutboxRow): SendMailOptions {
  return {
    to: row.toAddress,
    replyTo: row.replyTo ?? undefined,
    subject: row.subject,
    text: row.textBody,
    html: row.htmlBody,
    // RFC 8058 one-click unsubscribe for notices: mail clients show their own button.
    ...(row.listUnsubscribe && {
      list: { unsubscribe: row.listUnsubscribe },
      headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    }),
  }
}

export function createSmtpTransport(smtpUrl: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl, { from })
  return {
    kind: 'sent',
    async send(row) {
      await transporter.sendMail(message(row))
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
  return {
    kind: 'logged',
    async send(row) {
      const built = await builder.sendMail(message(row))
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

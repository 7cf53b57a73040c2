import nodemailer from 'nodemailer'
import type { FastifyBaseLogger } from 'fastify'
import type { OutboxRow } from './outbox'

export interface MailTransport {
  /** 'sent' over SMTP, or 'logged' when no SMTP server is configured. */
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

/**
 * SMTP with every wait bounded by `timeoutMs` (nodemailer's defaults allow a silent server ten
 * minutes), and a Message-ID stable per outbox row.
 */
export function createSmtpTransport(smtpUrl: string, from: string, timeoutMs = 30_000): MailTransport {
  const transporter = nodemailer.createTransport(
    { url: smtpUrl, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs },
    { from },
  )
  const domain = /@([^\s>]+)/.exec(from)?.[1] ?? 'circles.invalid'
  return {
    kind: 'sent',
    async send(row) {
      await transporter.sendMail({
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
      })
    },
    close: () => transporter.close(),
  }
}

/** Hides most of an address in logs: "ad***@example.com". */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@')
  return `${local.slice(0, 2)}***@${domain}`
}

/**
 * Without SMTP, a local user still needs the verification link: it is logged (with the link, which is
 * the point); the row then keeps no body, like a sent one.
 */
export function createLogTransport(log: FastifyBaseLogger): MailTransport {
  return {
    kind: 'logged',
    async send(row) {
      const links = row.textBody.match(/https?:\/\/\S+/g) ?? []
      log.info(
        { to: maskEmail(row.toAddress), kind: row.kind, subject: row.subject, links },
        'email not sent (no SMTP_URL); logged',
      )
    },
    close() {},
  }
}

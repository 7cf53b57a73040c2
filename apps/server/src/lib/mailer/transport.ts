import nodemailer from 'nodemailer'
import type { FastifyBaseLogger } from 'fastify'
import type { OutboxRow } from './outbox'

export interface MailTransport {
  /** 'sent' over SMTP, or 'logged' when no SMTP server is configured. */
  readonly kind: 'sent' | 'logged'
  send(row: OutboxRow): Promise<void>
  close(): void
}

export function createSmtpTransport(smtpUrl: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl, { from })
  return {
    kind: 'sent',
    async send(row) {
      await transporter.sendMail({
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
 * the point) and the message stays in the outbox.
 */
export function createLogTransport(log: FastifyBaseLogger): MailTransport {
  return {
    kind: 'logged',
    async send(row) {
      const links = row.textBody.match(/https?:\/\/\S+/g) ?? []
      log.info(
        { to: maskEmail(row.toAddress), kind: row.kind, subject: row.subject, links },
        'email not sent (no SMTP_URL); kept in outbox',
      )
    },
    close() {},
  }
}

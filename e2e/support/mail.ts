// Reading the messages the server sent to the test SMTP sink (see global-setup.ts, support/smtp-sink.ts).
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { StoredEmail } from './smtp-sink'
import { textParts } from './mime'

export type { StoredEmail } from './smtp-sink'

export interface ReceivedEmail extends StoredEmail {
  /** The JSON file the sink wrote. */
  file: string
}

export interface WaitForEmailOptions {
  /** Only messages whose decoded subject matches. */
  subject?: RegExp
  /** Only messages received at or after this time (e.g. a resend). */
  since?: Date
  /** Give up after this long (default 20 s). */
  timeoutMs?: number
  /** The sink's directory (default: process.env.E2E_MAIL_DIR, set by global setup). */
  mailDir?: string
}

function defaultMailDir(): string {
  const dir = process.env.E2E_MAIL_DIR
  if (!dir)
    throw new Error(
      'E2E_MAIL_DIR is not set: run through the Playwright config (its global setup starts the sink)',
    )
  return dir
}

/** Every message in the sink directory, oldest first. */
export async function readAllEmails(mailDir = defaultMailDir()): Promise<ReceivedEmail[]> {
  const names = (await readdir(mailDir)).filter((name) => name.endsWith('.json')).sort()
  const emails: ReceivedEmail[] = []
  for (const name of names) {
    const file = join(mailDir, name)
    emails.push({ ...(JSON.parse(await readFile(file, 'utf8')) as StoredEmail), file })
  }
  return emails.sort((a, b) => a.receivedAt.localeCompare(b.receivedAt))
}

/** Polls the sink until a message to `to` (matching the options) arrives; returns the newest such message. */
export async function waitForEmail(to: string, options: WaitForEmailOptions = {}): Promise<ReceivedEmail> {
  const { subject, since, timeoutMs = 20_000 } = options
  const mailDir = options.mailDir ?? defaultMailDir()
  const address = to.trim().toLowerCase()
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const all = await readAllEmails(mailDir)
    const matching = all.filter(
      (email) =>
        email.to.includes(address) &&
        (!subject || subject.test(email.subject)) &&
        (!since || new Date(email.receivedAt).getTime() >= since.getTime()),
    )
    const newest = matching.at(-1)
    if (newest) return newest
    if (Date.now() >= deadline) {
      const seen = all
        .map((email) => `  ${email.receivedAt} to ${email.to.join(', ')}: ${email.subject}`)
        .join('\n')
      throw new Error(
        `No email to ${address}${subject ? ` with subject ${subject}` : ''} within ${timeoutMs} ms.\n` +
          `Messages in the sink (${all.length}):\n${seen || '  (none)'}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

const HTML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (entity, code: string) => {
    if (code[0] === '#') {
      const value =
        code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10)
      return Number.isFinite(value) ? String.fromCodePoint(value) : entity
    }
    return HTML_ENTITIES[code.toLowerCase()] ?? entity
  })
}

/** The decoded text of every text part (plain and HTML) of a message. */
export function emailText(message: Pick<StoredEmail, 'raw'>): string {
  return textParts(message.raw)
    .filter((part) => part.contentType.startsWith('text/'))
    .map((part) => (part.contentType === 'text/html' ? decodeHtmlEntities(part.text) : part.text))
    .join('\n')
}

/** Every absolute http(s) link in the message's text and HTML parts, decoded. */
export function extractLinks(message: Pick<StoredEmail, 'raw'>): string[] {
  const links = new Set<string>()
  for (const match of emailText(message).matchAll(/https?:\/\/[^\s"'<>()[\]]+/g)) {
    const candidate = match[0].replace(/[.,;:!?]+$/, '')
    try {
      links.add(new URL(candidate).href)
    } catch {
      // not a URL after all
    }
  }
  return [...links]
}

/**
 * The first link whose path (with query) starts with `pathPrefix`, e.g.
 * `extractLink(email, '/verify?token=')` gives `http://localhost:1234/verify?token=...`.
 */
export function extractLink(
  message: Pick<StoredEmail, 'raw'> & Partial<StoredEmail>,
  pathPrefix: string,
): string {
  const links = extractLinks(message)
  const link = links.find((href) => {
    const url = new URL(href)
    return `${url.pathname}${url.search}`.startsWith(pathPrefix)
  })
  if (!link) {
    throw new Error(
      `No link starting with ${pathPrefix} in the email${message.subject ? ` "${message.subject}"` : ''}.\n` +
        `Links found: ${links.length ? links.join(', ') : '(none)'}`,
    )
  }
  return link
}

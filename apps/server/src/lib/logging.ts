import type { FastifyServerOptions } from 'fastify'

/** Fastify's logger options (pino's, plus `stream`). */
type LoggerOptions = Exclude<FastifyServerOptions['logger'], boolean | undefined>

/** Anything with `write(line)`: stdout by default, a capture in tests. */
export interface LogStream {
  write(line: string): void
}

/**
 * What the server's log may carry (docs/operations.md "Logs", docs/decisions/0023): ids,
 * route patterns, statuses, counts, masked email addresses, and errors without their data. Never a
 * password, hash, token, JWT, secret message, comment, description, request body, header with
 * credentials or full email address, at any level.
 *
 * Three layers, each enough for its kind of data:
 * - our own log calls pass ids only (every `log.*(` in src is reviewed for it);
 * - `serializeError` keeps an error's kind, code and where it happened, never its data: no query
 *   parameters (drizzle's "Failed query: … params: …"), no `detail` ('Key (email)=(…) already exists'),
 *   no `where`/`hint`/`internalQuery`, and PostgreSQL's "invalid input … : "value"" loses its value;
 * - `scrubLogText`, pino's `streamWrite` hook, rewrites every finished line: email addresses masked, and anything shaped like a
 *   token (64 hex digits), a JWT or an argon2 hash replaced. The text fields people type have no shape,
 *   so they rely on the first two layers and on `REDACT_PATHS`.
 */

/** Hides most of an address: "ad***@example.com". */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@')
  const local = at < 0 ? email : email.slice(0, at)
  const domain = at < 0 ? '' : email.slice(at + 1)
  return `${local.slice(0, 2)}***@${domain}`
}

// Email addresses as they appear in logged text (also inside JSON strings); a masked one ("ad***@…")
// does not match again, since '*' cannot end a local part here.
const EMAIL = /[A-Za-z0-9._%+'-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}\b/g
const HEX_TOKEN = /\b[0-9a-fA-F]{64}\b/g
const JWT = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g
const ARGON2 = /\$argon2(?:id|i|d)\$[^\s"\\]*/g

/** Masks email addresses and replaces token-, JWT- and hash-shaped strings in a piece of log text. */
export function scrubLogText(text: string): string {
  return text
    .replace(ARGON2, '[hash]')
    .replace(JWT, '[jwt]')
    .replace(HEX_TOKEN, '[hex]')
    .replace(EMAIL, (address) => maskEmail(address))
}

/** Error properties worth an operator's eyes that never carry the data of a row or a request. */
const SAFE_ERROR_FIELDS = [
  'code',
  'errno',
  'syscall',
  'statusCode',
  'severity',
  'routine',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
] as const

const MAX_CAUSE_DEPTH = 4

/**
 * The message without data: drizzle's query errors end in "\nparams: <every bound value>", and
 * PostgreSQL names the value it could not parse ("invalid input syntax for type uuid: "…"").
 */
function safeMessage(message: string): string {
  let text = message
  const params = text.search(/\nparams: /)
  if (params >= 0) text = text.slice(0, params)
  text = text.replace(/^(invalid input (?:syntax|value) for [^:]+): .*$/ms, '$1: [value]')
  return scrubLogText(text)
}

/** pino's error serializer, without the data: what failed and where, not with which values. */
export function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) {
    return typeof error === 'string' ? scrubLogText(error) : error
  }
  const source = error as Error & Record<string, unknown>
  const type = error.constructor?.name || error.name || 'Error'
  const message = safeMessage(error.message ?? '')
  const out: Record<string, unknown> = { type, message }
  for (const field of SAFE_ERROR_FIELDS) {
    const value = source[field]
    if (typeof value === 'string' || typeof value === 'number') out[field] = value
  }
  if (typeof error.stack === 'string') {
    // The stack's first lines repeat the message, params and all: keep only the frames.
    const frames = error.stack.split('\n').filter((line) => /^\s+at /.test(line))
    out.stack = [`${type}: ${message}`, ...frames].join('\n')
  }
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) {
    out.cause = serializeError(error.cause, depth + 1)
  }
  if (error instanceof AggregateError && depth < MAX_CAUSE_DEPTH) {
    out.errors = error.errors.slice(0, 5).map((inner) => serializeError(inner, depth + 1))
  }
  return out
}

/**
 * Keys whose values never reach the log, wherever a log call puts them (fast-redact paths: top level
 * and one level down). Request bodies and headers are dropped whole.
 */
export const REDACT_PATHS = [
  'body',
  'headers',
  'req.headers',
  'req.body',
  ...[
    'password',
    'newPassword',
    'currentPassword',
    'passwordHash',
    'token',
    'tokenHash',
    'authorization',
    'cookie',
    'secretMessage',
    'requesterComment',
    'receiverComment',
    'comment',
    'description',
    'body',
    'headers',
    'textBody',
    'htmlBody',
    'email',
    'toAddress',
    'replyTo',
  ].flatMap((key) => [key, `*.${key}`]),
]

function redactCensor(value: unknown, path: string[]): unknown {
  const key = path[path.length - 1] ?? ''
  if (typeof value === 'string' && ['email', 'toAddress', 'replyTo'].includes(key)) return maskEmail(value)
  return '[redacted]'
}

/**
 * The request as a log line may show it: method and route pattern. Never the raw URL (tokens live in
 * some paths and query strings), never headers.
 */
function serializeRequest(request: { method?: string; routeOptions?: { url?: string } }) {
  return { method: request.method, route: request.routeOptions?.url ?? 'unknown' }
}

// Fastify types the serializer's answer for the common case, an Error.
const serializeErrorField = (error: unknown) =>
  serializeError(error) as { type: string; message: string; stack: string }

/** Fastify's logger options: level, the serializers and redaction above, the scrubbed output. */
export function loggerOptions(level: string, stream?: LogStream): LoggerOptions {
  return {
    level,
    serializers: { err: serializeErrorField, error: serializeErrorField, req: serializeRequest },
    redact: { paths: REDACT_PATHS, censor: redactCensor },
    hooks: { streamWrite: scrubLogText },
    ...(stream && { stream }),
  }
}

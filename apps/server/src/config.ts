import path from 'node:path'
import { parseCosignerKey } from '@circles/ledger'
import { vapidPairMatches } from './lib/push/vapid'
import { z } from 'zod'
import type { RequestTimeouts } from './plugins/slow-clients'

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

const onOff = z.enum(['on', 'off'])

/** A duration in milliseconds, at least `min`, at most an hour. */
const ms = (min: number, fallback: number) =>
  z.coerce.number().int().min(min).max(3_600_000).default(fallback)

/** Every setting, with the embedded default that lets `npm start` run with no environment at all. */
const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Circles <no-reply@localhost>'),
  CONTACT_EMAIL: z.email({ error: 'must be an email address' }).default('hello@circles.example'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LEDGER_SIGNING_KEY: z
    .string()
    .regex(
      /^PRIVATE\+KEY\+[^\s+]+\+[0-9a-f]{8}\+[A-Za-z0-9+/=]+$/,
      'must be a signed-note signer key (PRIVATE+KEY+…)',
    )
    .optional(),
  LEDGER_PREVIOUS_KEYS: z.string().optional(),
  /**
   * Issue 29 (docs/decisions/0059): outside witnesses (C2SP tlog-witness), comma-separated, each
   * `<submission URL prefix> <the witness's Ed25519 cosigner verifier key>`.
   */
  LEDGER_WITNESSES: z
    .string()
    .refine((value) => parseWitnesses(value) !== undefined, {
      error: 'must be "<http(s) URL> <cosigner verifier key>" entries separated by commas',
    })
    .optional(),
  /**
   * The prefix of each new circle log's C2SP origin (`<prefix>/circle/<circleId>`) and of the witness key
   * names: a schema-less URL (host, optional port and path). Default: PUBLIC_URL's host. A log keeps the
   * origin of its first checkpoint for good (docs/decisions/0064).
   */
  LEDGER_ORIGIN: z
    .string()
    .regex(/^[A-Za-z0-9.-]+(:\d{1,5})?(\/[A-Za-z0-9._~-]+)*$/, {
      error:
        'must be a host with an optional port and path, without scheme or spaces (e.g. circles.example.org)',
    })
    .optional(),
  LEDGER_WITNESS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  LEDGER_WITNESS_INTERVAL_MS: ms(50, 5000),
  /** Web Push (issue 27, docs/decisions/0053): the VAPID key pair, base64url; generated into DATA_DIR when absent. */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'must be an uncompressed P-256 public key in base64url (87 characters)')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a P-256 private key in base64url (43 characters)')
    .optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'must be a mailto: or https: URL')
    .optional(),
  PUSH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d+|[\d.:/a-fA-F, ]+)$/, 'must be true, false, a hop count or a list of addresses')
    .default('false'),
  RATE_LIMITS: onOff.default('on'),
  /** Registrations per client address and hour (a school's or makerspace's sign-up evening behind one router). */
  REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(100),
  OUTBOX_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(5000),
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  STAGING: onOff.default('off'),
  PLAN_LIMITS: onOff.default('on'),
  HEADERS_TIMEOUT_MS: ms(1000, 10_000),
  BODY_TIMEOUT_MS: ms(1000, 20_000),
  BODY_MIN_BYTES_PER_SECOND: z.coerce.number().int().min(1).max(100_000_000).default(500),
  REQUEST_TIMEOUT_MS: ms(1000, 120_000),
  IDLE_TIMEOUT_MS: ms(1000, 60_000),
  KEEP_ALIVE_TIMEOUT_MS: ms(1000, 72_000),
  SOCKETS_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(50),
  /** Prometheus metrics (docs/decisions/0042): a listener of their own, off unless a port is given. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,}$/, 'must be at least 16 printable characters without spaces')
    .optional(),
  /** Graceful shutdown (lib/shutdown.ts): not ready while the load balancer notices, then a bound on draining. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(300_000).default(0),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
  /** The embedded database's page cache (PostgreSQL's shared_buffers) in MB; docs/decisions/0045. */
  PGLITE_SHARED_BUFFERS_MB: z.coerce.number().int().min(1).max(1024).default(32),
  /** Loan reminders (issue 26, docs/decisions/0049): how often each instance scans for due reminders. */
  LOAN_REMINDER_SCAN_INTERVAL: z
    .string()
    .regex(/^\d+(ms|s|m|h)$/, 'must be a duration such as 30s, 5m or 1h')
    .transform(durationMs)
    .pipe(z.number().min(1000, 'must be at least 1s').max(86_400_000, 'must be at most 24h'))
    .default(300_000),
  /** Reminders before the return date: days (at 08:00 in the borrower's time zone) or hours before. */
  LOAN_REMINDER_OFFSETS: z
    .string()
    .regex(
      /^\s*\d{1,2}[dh](\s*,\s*\d{1,2}[dh])*\s*$/,
      'must be a comma-separated list of offsets such as 1d,0d or 2d,1d,3h',
    )
    .transform((value) => [...new Set(value.split(',').map((part) => part.trim()))])
    .refine((offsets) => offsets.length <= 5, 'must list at most 5 offsets')
    .refine((offsets) => !offsets.includes('0h'), 'an offset in hours must be at least 1h')
    .refine(
      (offsets) => offsets.every((o) => Number(o.slice(0, -1)) <= (o.endsWith('d') ? 14 : 72)),
      'days must be at most 14, hours at most 72',
    )
    .default(['1d', '0d']),
})

/** `30s`, `5m`, `1h`, `250ms` in milliseconds. */
function durationMs(value: string): number {
  const [, amount = '0', unit = 'ms'] = /^(\d+)(ms|s|m|h)$/.exec(value) ?? []
  return Number(amount) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h']
}

export interface Config {
  port: number
  host: string
  publicUrl: string
  dataDir: string
  databaseUrl: string | undefined
  smtpUrl: string | undefined
  mailFrom: string
  contactEmail: string
  jwtSecret: string | undefined
  /** The checkpoint signer (Go's PRIVATE+KEY form); generated into DATA_DIR when absent. */
  ledgerSigningKey: string | undefined
  /** Verifier keys of earlier signing keys, still published so old checkpoints verify. */
  ledgerPreviousKeys: string[]
  /**
   * Issue 29: outside witnesses (C2SP tlog-witness) each new checkpoint is sent to, with the deadline of
   * one request and how often the worker looks for checkpoints they have not cosigned yet.
   */
  /**
   * The prefix of a new circle log's origin and of witness key names (LEDGER_ORIGIN, else PUBLIC_URL's
   * host; docs/decisions/0064).
   */
  ledgerOrigin: string
  ledgerWitnesses: {
    witnesses: { url: string; verifierKey: string }[]
    timeoutMs: number
    intervalMs: number
  }
  /**
   * Web Push (docs/decisions/0053): the VAPID keys given by the environment (both or neither; else the
   * server derives them from a secret it keeps in DATA_DIR), the subject the push services may contact
   * (mailto: CONTACT_EMAIL by default) and the deadline of each request to a push service.
   */
  push: { vapid: { publicKey: string; privateKey: string } | undefined; subject: string; timeoutMs: number }
  logLevel: (typeof LOG_LEVELS)[number]
  trustProxy: boolean | number | string
  rateLimits: boolean
  /** Registrations one client address may make per hour (the burst limit of 30 a minute stays). */
  registrationsPerHour: number
  outboxIntervalMs: number
  /** Each wait of an SMTP conversation (connect, greeting, every reply); the outbox lease is sized on it. */
  smtpTimeoutMs: number
  staging: boolean
  /** The Personal plan's limits (2 circles, 11 members, 10 items); off for self-hosted operators. */
  planLimits: boolean
  /** How long a client may take to send a request (plugins/slow-clients.ts). */
  timeouts: RequestTimeouts
  /** Open real-time sockets per account, across instances with PostgreSQL. */
  socketsPerAccount: number
  /**
   * Prometheus metrics: on when `port` (a listener of their own on `host`) or `token` (then also GET
   * /metrics on the main port, and the bearer token is required on both) is set.
   */
  metrics: { port: number | undefined; host: string; token: string | undefined }
  /** After SIGTERM: how long readiness says 503 while the server still serves, before it stops accepting. */
  shutdownDrainMs: number
  /** After that: the bound on requests in flight; then the remaining connections are cut and it exits. */
  shutdownTimeoutMs: number
  /** shared_buffers of the embedded database (PGlite), in MB; unused with DATABASE_URL. */
  pgliteSharedBuffersMb: number
  /** Loan reminders (docs/decisions/0049): scan interval and the offsets before the return date. */
  loanReminders: { scanIntervalMs: number; offsets: string[] }
}

export class ConfigError extends Error {}

/** LEDGER_WITNESSES as a list; undefined when an entry is not a URL and a cosigner key. */
function parseWitnesses(value: string): { url: string; verifierKey: string }[] | undefined {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  const witnesses = entries.map((entry) => {
    const [url = '', verifierKey = '', ...rest] = entry.split(/\s+/)
    try {
      parseCosignerKey(verifierKey)
      if (rest.length > 0 || !/^https?:$/.test(new URL(url).protocol)) return undefined
    } catch {
      return undefined
    }
    return { url: url.replace(/\/+$/, ''), verifierKey }
  })
  return witnesses.every((w) => w !== undefined) ? witnesses : undefined
}

function parseTrustProxy(value: string): boolean | number | string {
  if (value === 'true') return true
  if (value === 'false') return false
  if (/^\d+$/.test(value)) return Number(value)
  return value
}

/** Reads the environment once at boot; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''))
  const result = ZEnv.safeParse(present)
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const e = result.data
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    throw new ConfigError('Invalid configuration:\n  METRICS_PORT: must differ from PORT')
  }
  if ((e.VAPID_PUBLIC_KEY === undefined) !== (e.VAPID_PRIVATE_KEY === undefined)) {
    throw new ConfigError(
      'Invalid configuration:\n  VAPID_PRIVATE_KEY: set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY together',
    )
  }
  const vapid =
    e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY
      ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY }
      : undefined
  if (vapid && !vapidPairMatches(vapid)) {
    throw new ConfigError(
      'Invalid configuration:\n  VAPID_PUBLIC_KEY: is not the public key of VAPID_PRIVATE_KEY',
    )
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '')
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    ledgerOrigin: e.LEDGER_ORIGIN ?? new URL(publicUrl).host,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    contactEmail: e.CONTACT_EMAIL,
    jwtSecret: e.JWT_SECRET,
    ledgerSigningKey: e.LEDGER_SIGNING_KEY,
    ledgerPreviousKeys: (e.LEDGER_PREVIOUS_KEYS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean),
    ledgerWitnesses: {
      witnesses: parseWitnesses(e.LEDGER_WITNESSES ?? '') ?? [],
      timeoutMs: e.LEDGER_WITNESS_TIMEOUT_MS,
      intervalMs: e.LEDGER_WITNESS_INTERVAL_MS,
    },
    push: { vapid, subject: e.VAPID_SUBJECT ?? `mailto:${e.CONTACT_EMAIL}`, timeoutMs: e.PUSH_TIMEOUT_MS },
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    rateLimits: e.RATE_LIMITS === 'on',
    registrationsPerHour: e.REGISTRATIONS_PER_HOUR,
    outboxIntervalMs: e.OUTBOX_INTERVAL_MS,
    smtpTimeoutMs: e.SMTP_TIMEOUT_MS,
    staging: e.STAGING === 'on',
    planLimits: e.PLAN_LIMITS === 'on',
    timeouts: {
      headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
      bodyTimeoutMs: e.BODY_TIMEOUT_MS,
      bodyMinBytesPerSecond: e.BODY_MIN_BYTES_PER_SECOND,
      // Node refuses a header deadline beyond the whole request's.
      requestTimeoutMs: Math.max(e.REQUEST_TIMEOUT_MS, e.HEADERS_TIMEOUT_MS),
      idleTimeoutMs: e.IDLE_TIMEOUT_MS,
      keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    },
    socketsPerAccount: e.SOCKETS_PER_ACCOUNT,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    pgliteSharedBuffersMb: e.PGLITE_SHARED_BUFFERS_MB,
    loanReminders: { scanIntervalMs: e.LOAN_REMINDER_SCAN_INTERVAL, offsets: e.LOAN_REMINDER_OFFSETS },
  }
}

import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { desc, eq } from 'drizzle-orm'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { type BuildAppOptions, buildApp } from '../../src/app'
import { loadConfig } from '../../src/config'
import { type Database, fromPostgres } from '../../src/db/client'
import { outbox } from '../../src/db/schema'
import type { OutboxRow } from '../../src/lib/mailer/outbox'
import {
  type MailTransport,
  createMailFolderTransport,
  createSmtpTransport,
} from '../../src/lib/mailer/transport'
import { createTestDatabase } from './database'
import { DEFAULT_PASSWORD } from './factories'

export const TEST_PUBLIC_URL = 'http://localhost:3000'
export const TEST_JWT_SECRET = 'test-secret-'.padEnd(48, 'x')

export interface TestApp {
  app: FastifyInstance
  database: Database
  /** The app's DATA_DIR (pictures are under `uploads/` with the embedded database). */
  dataDir: string
  /**
   * Emails queued for this address, newest first: the outbox rows, with subject and bodies as queued
   * (a delivered row keeps none; they are taken from what the app's transport was handed).
   */
  emailsTo(address: string): Promise<OutboxRow[]>
  /** What the transport was handed, by outbox id. */
  handed: Map<string, OutboxRow>
  close(): Promise<void>
}

/**
 * Every test app logs at trace into a watch that no line may pass with a secret in it (issue 22): the
 * password every factory user has, a full email address, a JWT, an argon2 hash. So the whole route
 * suite's log is searched, not only log-secrets.test.ts's; `close()` fails the file on a finding.
 */
function logWatch() {
  const findings: string[] = []
  const shapes: [string, RegExp][] = [
    ['email address', /[A-Za-z0-9._%+'-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}\b/],
    ['JWT', /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\./],
    ['password hash', /\$argon2(?:id|i|d)\$/],
  ]
  return {
    stream: {
      write(line: string) {
        if (line.includes(DEFAULT_PASSWORD)) findings.push(`the test password in: ${line.slice(0, 300)}`)
        for (const [what, shape] of shapes) {
          if (shape.test(line)) findings.push(`${what} in: ${line.slice(0, 300)}`)
        }
      },
    },
    check() {
      if (findings.length > 0) {
        throw new Error(`The app's log carries secrets (issue 22):\n${findings.slice(0, 10).join('\n')}`)
      }
    },
  }
}

/** Remembers each email it is handed, then passes it on. */
function handing(inner: MailTransport, handed: Map<string, OutboxRow>): MailTransport {
  return {
    kind: inner.kind,
    async send(row) {
      handed.set(row.id, row)
      await inner.send(row)
    },
    close: () => inner.close(),
  }
}

/** Without SMTP_URL: 'logged', and nothing written (the second instance's tests use an SMTP sink). */
const quietLogTransport: MailTransport = { kind: 'logged', send: async () => {}, close() {} }

/**
 * Without SMTP_URL, the app's own mail-folder transport (`DATA_DIR/mail`, logging through the app's
 * logger, which exists only once the app is built: `bind` it then).
 */
function mailFolder(dir: string, from: string) {
  let inner: MailTransport | undefined
  const transport: MailTransport = {
    kind: 'logged',
    send: (row) => (inner ? inner.send(row) : Promise.reject(new Error('mail folder not bound yet'))),
    close: () => inner?.close(),
  }
  return { transport, bind: (log: FastifyBaseLogger) => (inner = createMailFolderTransport(log, dir, from)) }
}

function emailsFrom(database: Database, handed: Map<string, OutboxRow>) {
  return async (address: string) => {
    const rows = await database.db
      .select()
      .from(outbox)
      .where(eq(outbox.toAddress, address))
      .orderBy(desc(outbox.createdAt))
    return rows.map((row) => {
      const queued = handed.get(row.id)
      if (!queued) return row
      const { subject, textBody, htmlBody, replyTo, listUnsubscribe } = queued
      return { ...row, subject, textBody, htmlBody, replyTo, listUnsubscribe }
    })
  }
}

/** The real app on a database of its own; `env` overrides the embedded defaults. */
export async function createTestApp({
  env,
  poolSize,
  mailTransport,
  ...opts
}: { env?: Record<string, string>; poolSize?: number } & Partial<
  Omit<BuildAppOptions, 'config' | 'database'>
> = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'circles-test-'))
  const watch = logWatch()
  const config = loadConfig({
    LOG_LEVEL: 'trace',
    PUBLIC_URL: TEST_PUBLIC_URL,
    DATA_DIR: dataDir,
    CONTACT_EMAIL: 'team@circles.test',
    OUTBOX_INTERVAL_MS: '100',
    ...env,
  })
  const database = await createTestDatabase(poolSize)
  const handed = new Map<string, OutboxRow>()
  const folder = mailFolder(path.join(config.dataDir, 'mail'), config.mailFrom)
  const transport =
    mailTransport ??
    (config.smtpUrl
      ? createSmtpTransport(config.smtpUrl, config.mailFrom, config.smtpTimeoutMs)
      : folder.transport)
  const app = await buildApp({
    jwtSecret: TEST_JWT_SECRET,
    webDir: null,
    logStream: watch.stream,
    ...opts,
    mailTransport: handing(transport, handed),
    config,
    database,
  })
  folder.bind(app.log)
  await app.ready()
  return {
    app,
    database,
    dataDir,
    emailsTo: emailsFrom(database, handed),
    handed,
    async close() {
      await slowStep('the app', database, () => closeApp(app))
      await closeDatabase(database)
      await rm(dataDir, { recursive: true, force: true })
      watch.check()
    },
  }
}

/**
 * Ends the test database. On PostgreSQL a pool client was once left checked out after the app had closed
 * (metrics.test.ts, its app listening on a port: `pool total 1, idle 0`), and the pool's end waited for it
 * forever. The server's own shutdown is bounded and exits anyway (lib/shutdown.ts); here the clients still
 * out are ended after 15 s the same way, and it is said, so the leak stays visible in the output.
 */
async function closeDatabase(database: Database) {
  const pool = database.pool
  const ended = database.close()
  if (!pool) return ended
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 15_000)))
  const outcome = await Promise.race([ended.then(() => 'ended' as const), late])
  clearTimeout(timer)
  if (outcome === 'ended') return
  console.error(
    `closing the database takes over 15 s: pool total ${pool.totalCount}, idle ${pool.idleCount}, ` +
      `waiting ${pool.waitingCount}; ending the clients still out (a leak to find)`,
  )
  for (const client of (pool as unknown as { _clients: { release(error: Error): void }[] })._clients) {
    try {
      client.release(new Error('test database closed'))
    } catch {
      // An idle client: the pool's end takes care of it.
    }
  }
  await ended
}

/**
 * Runs a step of closing a test app and, should it take over 15 s, says which step and what the pool
 * holds (a CI run hung once in metrics.test.ts's afterAll on PostgreSQL, cause unknown). It still waits:
 * a hang stays a failure, now with its evidence.
 */
async function slowStep(what: string, database: Database, step: () => Promise<void>) {
  const timer = setTimeout(() => {
    const pool = database.pool
    console.error(
      `closing ${what} takes over 15 s` +
        (pool ? `: pool total ${pool.totalCount}, idle ${pool.idleCount}, waiting ${pool.waitingCount}` : ''),
    )
  }, 15_000)
  try {
    await step()
  } finally {
    clearTimeout(timer)
  }
}

/** The token of the first link to `pathname` in an email body. */
export function tokenFromEmail(body: string, pathname: string): string {
  const match = body.match(new RegExp(`${pathname}\\?token=([0-9a-f]{64})`))
  if (!match?.[1]) throw new Error(`no ${pathname} link in email`)
  return match[1]
}

/**
 * A second instance of the app on the first one's PostgreSQL database, as behind a load balancer:
 * its own process state (sockets, timers), the same data. PostgreSQL only.
 */
export async function secondInstance(
  first: TestApp,
  poolSize = 4,
  env: Record<string, string> = {},
  opts: Pick<BuildAppOptions, 'clock'> = {},
): Promise<TestApp> {
  const url = first.database.pool?.options.connectionString
  if (!url) throw new Error('the PostgreSQL test database has no connection string')
  const database = fromPostgres(url, poolSize)
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'circles-test-'))
  const watch = logWatch()
  const config = loadConfig({
    LOG_LEVEL: 'trace',
    PUBLIC_URL: TEST_PUBLIC_URL,
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    ...env,
  })
  const transport = config.smtpUrl
    ? createSmtpTransport(config.smtpUrl, config.mailFrom, config.smtpTimeoutMs)
    : quietLogTransport
  const app = await buildApp({
    ...opts,
    logStream: watch.stream,
    config,
    database,
    jwtSecret: TEST_JWT_SECRET,
    webDir: null,
    // Both instances hand their emails to one map, so either's emailsTo sees them all.
    mailTransport: handing(transport, first.handed),
  })
  await app.ready()
  return {
    app,
    database,
    dataDir,
    emailsTo: first.emailsTo,
    handed: first.handed,
    async close() {
      await closeApp(app)
      await database.close()
      await rm(dataDir, { recursive: true, force: true })
      watch.check()
    },
  }
}

/**
 * Closes a test's app. A test that listened leaves its client's keep-alive sockets behind, which
 * Fastify's close would wait on until the idle timeout (60 s); the test is over, so they are cut, as
 * the server's own shutdown cuts what remains after its bound (lib/shutdown.ts).
 */
async function closeApp(app: FastifyInstance) {
  const closing = app.close()
  app.server.closeAllConnections()
  await closing
}

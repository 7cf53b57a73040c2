// Playwright global setup: a real SMTP sink and the built server on free ports, for every test of the run.
// Tests find them through process.env (set here, before the workers start): E2E_BASE_URL, E2E_MAIL_DIR.
// With E2E_PAIR_DATABASE_URL (a PostgreSQL server) it starts two servers on one fresh database instead,
// as behind a load balancer, and sets E2E_SECOND_BASE_URL: the second person of a two-browser test
// uses the second server, and sets E2E_DATABASE_URL and E2E_LEDGER_SIGNING_KEY for tests that act as
// the operator. Returns the teardown, which stops only what this setup started.
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { signerKey } from '../packages/ledger/src/note'
import { createPairDatabase } from './support/pair-database'
import { type RunningServer, startServer } from './support/server'
import { startSmtpSink } from './support/smtp-sink'

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const resultsDir = fileURLToPath(new URL('./test-results', import.meta.url))

export default async function globalSetup(): Promise<() => Promise<void>> {
  await mkdir(resultsDir, { recursive: true })
  const mailDir = await mkdtemp(join(tmpdir(), 'circles-e2e-mail-'))
  const sink = await startSmtpSink(mailDir)
  const logFile = join(resultsDir, 'server.log')
  const pairServerUrl = process.env.E2E_PAIR_DATABASE_URL
  const database = pairServerUrl ? await createPairDatabase(pairServerUrl) : undefined
  // Instances behind one load balancer share the database, the session key and the ledger's signing key
  // (docs/operations.md).
  const env = database
    ? {
        DATABASE_URL: database.url,
        JWT_SECRET: randomBytes(32).toString('hex'),
        LEDGER_SIGNING_KEY: signerKey('localhost', randomBytes(32)),
      }
    : undefined
  const servers: RunningServer[] = []
  const stopAll = async () => {
    for (const running of servers.reverse()) await running.stop()
    await database?.drop()
    await sink.close()
    await rm(mailDir, { recursive: true, force: true })
  }
  try {
    // Every test comes from 127.0.0.1, as a group behind one router does: no faked client addresses.
    servers.push(await startServer({ repoRoot, smtpUrl: sink.url, logFile, env }))
    if (database) {
      const secondLog = join(resultsDir, 'server-2.log')
      servers.push(await startServer({ repoRoot, smtpUrl: sink.url, logFile: secondLog, env }))
    }
  } catch (error) {
    await stopAll()
    throw error
  }
  const [server, second] = servers as [RunningServer, RunningServer | undefined]
  console.log(
    `[e2e] server pid ${server.pid} at ${server.baseURL}` +
      (second ? `, second server pid ${second.pid} at ${second.baseURL} on one PostgreSQL` : '') +
      `, mail sink on port ${sink.port}, log ${logFile}`,
  )

  process.env.E2E_BASE_URL = server.baseURL
  process.env.E2E_MAIL_DIR = mailDir
  if (second) process.env.E2E_SECOND_BASE_URL = second.baseURL
  // For tests that act as the operator, directly on the database (the ledger's rewrite test).
  if (env) {
    process.env.E2E_DATABASE_URL = env.DATABASE_URL
    process.env.E2E_LEDGER_SIGNING_KEY = env.LEDGER_SIGNING_KEY
  }

  return stopAll
}

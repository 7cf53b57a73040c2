// Playwright global setup: a real SMTP sink and the built server on free ports, for every test of the run.
// Tests find them through process.env (set here, before the workers start): E2E_BASE_URL, E2E_MAIL_DIR.
// With E2E_PAIR_DATABASE_URL (a PostgreSQL server) it starts two servers on one fresh database instead,
// as behind a load balancer, and sets E2E_SECOND_BASE_URL: the second person of a two-browser test
// uses the second server, and sets E2E_DATABASE_URL and E2E_LEDGER_SIGNING_KEY for tests that act as
// the operator. Returns the teardown, which stops only what this setup started and then searches the
// servers' logs (written at LOG_LEVEL=trace) for secrets the tests typed (support/log-scan.ts).
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { signerKey } from '../packages/ledger/src/note'
import { scanServerLog } from './support/log-scan'
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
  const logFiles = [logFile, ...(database ? [join(resultsDir, 'server-2.log')] : [])]
  // Each run's log on its own: the scan at the end reads what this run's servers wrote.
  for (const file of logFiles) await rm(file, { force: true })
  const stopAll = async () => {
    for (const running of servers.reverse()) await running.stop()
    await database?.drop()
    await sink.close()
    await rm(mailDir, { recursive: true, force: true })
  }
  const stopAndScan = async () => {
    await stopAll()
    const findings = (await Promise.all(logFiles.map(scanServerLog))).flat()
    if (findings.length > 0) {
      throw new Error(
        `The server log carries secrets the tests typed (issue 22; docs/operations.md "What is logged"):\n` +
          findings
            .slice(0, 20)
            .map((f) => `  ${f.file}:${f.line}: ${f.what} (${f.excerpt})`)
            .join('\n'),
      )
    }
  }
  // Every level, so the scan at the end sees every line the server can write.
  // Loan reminders (issue 26) are scanned for every second, so a test sees one within moments.
  const serverEnv = { LOG_LEVEL: 'trace', LOAN_REMINDER_SCAN_INTERVAL: '1s', ...env }
  try {
    // Every test comes from 127.0.0.1, as a group behind one router does: no faked client addresses.
    servers.push(await startServer({ repoRoot, smtpUrl: sink.url, logFile, env: serverEnv }))
    if (database) {
      servers.push(await startServer({ repoRoot, smtpUrl: sink.url, logFile: logFiles[1]!, env: serverEnv }))
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

  return stopAndScan
}

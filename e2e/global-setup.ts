// Playwright global setup: a real SMTP sink and the built server on free ports, for every test of the run.
// Tests find them through process.env (set here, before the workers start): E2E_BASE_URL, E2E_MAIL_DIR.
// Returns the teardown, which stops only what this setup started.
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startServer } from './support/server'
import { startSmtpSink } from './support/smtp-sink'

const repoRoot = fileURLToPath(new URL('..', import.meta.url))
const resultsDir = fileURLToPath(new URL('./test-results', import.meta.url))

export default async function globalSetup(): Promise<() => Promise<void>> {
  await mkdir(resultsDir, { recursive: true })
  const mailDir = await mkdtemp(join(tmpdir(), 'circles-e2e-mail-'))
  const sink = await startSmtpSink(mailDir)
  const logFile = join(resultsDir, 'server.log')
  let server: Awaited<ReturnType<typeof startServer>>
  try {
    // Every test comes from 127.0.0.1, as a group behind one router does: no faked client addresses.
    server = await startServer({ repoRoot, smtpUrl: sink.url, logFile })
  } catch (error) {
    await sink.close()
    await rm(mailDir, { recursive: true, force: true })
    throw error
  }
  console.log(
    `[e2e] server pid ${server.pid} at ${server.baseURL}, mail sink on port ${sink.port}, log ${logFile}`,
  )

  process.env.E2E_BASE_URL = server.baseURL
  process.env.E2E_MAIL_DIR = mailDir

  return async () => {
    await server.stop()
    await sink.close()
    await rm(mailDir, { recursive: true, force: true })
  }
}

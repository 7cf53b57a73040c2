// Starts the built server (apps/server/dist/server.js) as a child process on a free port with a fresh
// DATA_DIR, waits for GET /api/health, and stops exactly that child again.
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface StartServerOptions {
  /** Repository root; the server runs from here. */
  repoRoot: string
  /** SMTP URL of the mail sink. */
  smtpUrl: string
  /** Where the child's stdout and stderr go (appended). */
  logFile: string
  /** Extra environment for the server. */
  env?: Record<string, string>
  /** How long to wait for /api/health (default 60 s). */
  startTimeoutMs?: number
  /** A DATA_DIR owned by the caller (kept on stop, e.g. to restart on the same data); default: a fresh one. */
  dataDir?: string
}

export interface RunningServer {
  baseURL: string
  port: number
  pid: number
  dataDir: string
  stop(): Promise<void>
  /** The child's exit code once it has exited, else null. */
  exitCode(): number | null
  /** The last few KB the server printed. */
  output(): string
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', resolve)
  })
  const address = probe.address()
  await new Promise((resolve) => probe.close(resolve))
  if (!address || typeof address === 'string') throw new Error('could not get a free port')
  return address.port
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true)
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve(true)
    })
  })
}

/** SIGTERM, then SIGKILL after 5 s; only ever the given child. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (exited(child)) return
  child.kill('SIGTERM')
  if (await waitForExit(child, 5_000)) return
  child.kill('SIGKILL')
  await waitForExit(child, 5_000)
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const entry = join(options.repoRoot, 'apps/server/dist/server.js')
  if (!existsSync(entry)) throw new Error(`${entry} does not exist: run \`npm run build\` first`)
  if (!existsSync(join(options.repoRoot, 'apps/web/dist/index.html'))) {
    console.warn('[e2e] apps/web/dist/index.html does not exist: the server has no web app to serve')
  }

  const port = await freePort()
  const baseURL = `http://localhost:${port}`
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'circles-e2e-data-')))
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseURL,
    DATA_DIR: dataDir,
    SMTP_URL: options.smtpUrl,
    MAIL_FROM: 'Circles <no-reply@circles.test>',
    CONTACT_EMAIL: 'contact@circles.test',
    LOG_LEVEL: 'warn',
    // The whole run registers some 150 accounts from 127.0.0.1 within 20 minutes, more than the
    // default 100 an hour one address may; the burst limit (30 a minute) stays as it is.
    REGISTRATIONS_PER_HOUR: '1000',
    ...options.env,
  }
  // The end-to-end run always uses the embedded database in its fresh DATA_DIR.
  if (!options.env?.DATABASE_URL) delete env.DATABASE_URL

  const log = createWriteStream(options.logFile, { flags: 'a' })
  let recentOutput = ''
  const child = spawn(process.execPath, [entry], {
    cwd: options.repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const keep = (chunk: Buffer) => {
    log.write(chunk)
    recentOutput = (recentOutput + chunk.toString('utf8')).slice(-8_000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  child.on('error', (error) => keep(Buffer.from(`[e2e] could not run the server: ${error.message}\n`)))
  // If the runner dies without teardown, do not leave this child behind.
  const killOnExit = () => {
    if (!exited(child)) child.kill('SIGKILL')
  }
  process.on('exit', killOnExit)

  const cleanUp = async () => {
    await stopChild(child)
    process.off('exit', killOnExit)
    await new Promise((resolve) => log.end(resolve))
    if (!options.dataDir) await rm(dataDir, { recursive: true, force: true })
  }

  // Generous: on a loaded two-core machine the PGlite start (migrations, extensions) took over a minute;
  // a server that cannot start exits, which is caught at once above.
  const timeoutMs = options.startTimeoutMs ?? 180_000
  const deadline = Date.now() + timeoutMs
  let lastProblem = 'no answer yet'
  for (;;) {
    if (exited(child)) {
      await cleanUp()
      throw new Error(
        `The server exited during start-up (code ${child.exitCode}, signal ${child.signalCode}).\n` +
          `Its output (also in ${options.logFile}):\n${recentOutput}`,
      )
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`, {
        signal: AbortSignal.timeout(2_000),
      })
      if (response.status === 200) break
      lastProblem = `GET /api/health answered ${response.status}: ${(await response.text()).slice(0, 500)}`
    } catch (error) {
      lastProblem = `GET /api/health failed: ${(error as Error).message}`
    }
    if (Date.now() >= deadline) {
      await cleanUp()
      throw new Error(
        `The server did not become healthy within ${timeoutMs} ms (${lastProblem}).\n` +
          `Its output (also in ${options.logFile}):\n${recentOutput}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }

  return {
    baseURL,
    port,
    pid: child.pid ?? -1,
    dataDir,
    stop: cleanUp,
    exitCode: () => child.exitCode,
    output: () => recentOutput,
  }
}

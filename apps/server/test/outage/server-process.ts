import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const serverEntry = fileURLToPath(new URL('../../src/server.ts', import.meta.url))
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url))

/** A real server process (src/server.ts through tsx) and everything it wrote. */
export interface ServerProcess {
  port: number
  url: string
  process: ChildProcess
  output: string[]
}

/**
 * Starts the server on 127.0.0.1:`port` with `env` (and PATH, PORT, HOST) and waits until
 * `GET /api/ready` answers 200. Fails with the process's output when it exits first or is not ready
 * within `readyWithinMs`.
 */
export async function startServerProcess(
  port: number,
  env: Record<string, string>,
  readyWithinMs = 45_000,
): Promise<ServerProcess> {
  const output: string[] = []
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()))
  const server = { port, url: `http://127.0.0.1:${port}`, process: child, output }
  const deadline = Date.now() + readyWithinMs
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server on port ${port} exited before it was ready:\n${output.join('')}`)
    const ready = await fetch(`${server.url}/api/ready`).then(
      (res) => res.ok,
      () => false,
    )
    if (ready) return server
    if (Date.now() > deadline)
      throw new Error(
        `the server on port ${port} was not ready within ${readyWithinMs} ms:\n${output.join('')}`,
      )
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

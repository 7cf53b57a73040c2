import { execFile } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '../support/fixtures'
import { startServer } from '../support/server'

const repoRoot = fileURLToPath(new URL('../..', import.meta.url))
const logFile = join(repoRoot, 'e2e/test-results/server-process.log')

async function post(baseURL: string, path: string, body: object, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseURL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

/** The token of the verification email the server wrote to its mail folder (no SMTP), if any yet. */
async function verificationToken(mailDir: string): Promise<string | undefined> {
  const names = await readdir(mailDir).catch(() => [] as string[])
  const name = names.find((n) => n.endsWith('.eml') && n.includes('verify-email'))
  if (!name) return undefined
  // Quoted-printable: soft line breaks and '=' written as =3D.
  const text = (await readFile(join(mailDir, name), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=')
  return text.match(/verify\?token=([0-9a-f]{64})/)?.[1]
}

test.describe('the server process', () => {
  test('refuses a bad configuration, naming the variable', async () => {
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['apps/server/dist/server.js'],
        { cwd: repoRoot, env: { ...process.env, PORT: 'not-a-port', DATABASE_URL: '' } },
        (error, _stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stderr }),
      )
    })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('Invalid configuration')
    expect(result.stderr).toContain('PORT')
  })

  test('keeps data and sessions across a restart, and exits cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'circles-e2e-restart-'))
    try {
      // No SMTP: the email is written to DATA_DIR/mail; the log names the file, never the link.
      const first = await startServer({ repoRoot, smtpUrl: '', logFile, dataDir, env: { LOG_LEVEL: 'info' } })
      const email = `restart-${Date.now()}@example.com`
      const password = 'restart password'
      expect(
        (await post(first.baseURL, '/api/users/register', { name: 'Ada', email, password })).status,
      ).toBe(201)
      await expect.poll(() => verificationToken(join(dataDir, 'mail'))).toMatch(/^[0-9a-f]{64}$/)
      const token = (await verificationToken(join(dataDir, 'mail')))!
      expect(first.output()).toContain('written to the mail folder')
      expect(first.output()).toContain('re***@example.com')
      expect(first.output()).not.toContain(token)
      expect(first.output()).not.toContain(email)
      expect((await fetch(`${first.baseURL}/api/users/verify/${token}`)).status).toBe(200)
      const login = await post(first.baseURL, '/api/users/login', { email, password })
      expect(login.status).toBe(200)
      await first.stop()
      expect(first.exitCode()).toBe(0)

      const second = await startServer({ repoRoot, smtpUrl: '', logFile, dataDir })
      try {
        const me = await fetch(`${second.baseURL}/api/users/me`, {
          headers: { authorization: `Bearer ${login.body.token}` },
        })
        expect(me.status).toBe(200)
        expect((await post(second.baseURL, '/api/users/login', { email, password })).status).toBe(200)
      } finally {
        await second.stop()
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  test('a second start on the same data directory is refused, and the first keeps serving', async () => {
    const first = await startServer({ repoRoot, smtpUrl: '', logFile })
    try {
      const second = await new Promise<{ code: number | null; stderr: string; ms: number }>((resolve) => {
        const started = Date.now()
        execFile(
          process.execPath,
          ['apps/server/dist/server.js'],
          {
            cwd: repoRoot,
            env: { ...process.env, DATA_DIR: first.dataDir, PORT: '0', DATABASE_URL: '', LOG_LEVEL: 'warn' },
            timeout: 30_000,
          },
          (error, _stdout, stderr) =>
            resolve({ code: error ? (error.code as number) : 0, stderr, ms: Date.now() - started }),
        )
      })
      expect(second.code).toBe(1)
      expect(second.stderr).toContain(
        `Another Circles server (PID ${first.pid}) is running on the data directory ${first.dataDir}.`,
      )
      expect(second.ms).toBeLessThan(10_000)

      expect((await fetch(`${first.baseURL}/api/ready`)).status).toBe(200)
      const email = `still-serving-${Date.now()}@example.com`
      const registered = await post(first.baseURL, '/api/users/register', {
        name: 'Grace',
        email,
        password: 'still serving',
      })
      expect(registered.status).toBe(201)
    } finally {
      await first.stop()
    }
  })

  test('a start after kill -9 succeeds and keeps every acknowledged write', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'circles-e2e-crash-'))
    try {
      const first = await startServer({ repoRoot, smtpUrl: '', logFile, dataDir })
      const emails = Array.from({ length: 5 }, (_, i) => `crash-${i}-${Date.now()}@example.com`)
      for (const email of emails) {
        const registered = await post(first.baseURL, '/api/users/register', {
          name: 'Ada',
          email,
          password: 'acknowledged',
        })
        expect(registered.status).toBe(201)
      }
      process.kill(first.pid, 'SIGKILL')
      await first.stop() // waits for the exit, keeps dataDir

      // Not refused: the lock died with the process.
      const second = await startServer({ repoRoot, smtpUrl: '', logFile, dataDir })
      try {
        for (const email of emails) {
          const again = await post(second.baseURL, '/api/users/register', {
            name: 'Ada',
            email,
            password: 'acknowledged',
          })
          expect(again.body.code, email).toBe('USER_EXISTS')
        }
      } finally {
        await second.stop()
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })

  test('finishes requests in flight when told to stop', async () => {
    const server = await startServer({ repoRoot, smtpUrl: '', logFile })
    try {
      // Each request sends its headers and half its body, so it is in flight before SIGTERM arrives;
      // the rest of the body follows the signal. All must be answered, then the process exits 0.
      const body = JSON.stringify({ email: 'nobody@example.com', password: 'whatever password' })
      const requests = Array.from({ length: 4 }, () => {
        const req = httpRequest(`${server.baseURL}/api/users/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        })
        const answered = new Promise<number>((resolve, reject) => {
          req.on('response', (res) => {
            res.resume()
            res.on('end', () => resolve(res.statusCode ?? 0))
          })
          req.on('error', reject)
        })
        req.write(body.slice(0, 10))
        return { req, answered }
      })
      await new Promise((r) => setTimeout(r, 300))
      process.kill(server.pid, 'SIGTERM')
      await new Promise((r) => setTimeout(r, 100))
      for (const { req } of requests) req.end(body.slice(10))
      expect(await Promise.all(requests.map((r) => r.answered))).toEqual([401, 401, 401, 401])
      await expect.poll(() => server.exitCode()).toBe(0)
    } finally {
      await server.stop()
    }
  })
})

test.describe('API documentation', () => {
  test('Swagger UI renders the OpenAPI document under our CSP', async ({ page }) => {
    const cspErrors: string[] = []
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) cspErrors.push(msg.text())
    })
    await page.goto('/api/docs')
    await expect(page.getByRole('heading', { name: /Circles API/ })).toBeVisible()
    await expect(page.getByText('/api/users/register').first()).toBeVisible()
    expect(cspErrors).toEqual([])
  })
})

// Issue 22: the server's log of a whole end-to-end run (at LOG_LEVEL=trace, console output included)
// carries no secret the tests typed: no full email address, no test password or secret message, nothing
// shaped like a session token, a one-time token or a password hash. Global teardown runs it on the
// stopped servers' logs and fails the run on a finding.
import { readFile } from 'node:fs/promises'
import { PASSWORD } from '../tests/auth-support'

/** What the specs type and the log must never show (passwords and secret messages of the specs). */
export const PLANTED_E2E_SECRETS = [
  PASSWORD,
  'e2e-Brand-new-pass-9',
  'restart password',
  'Garage code 4711',
  'Shed key under the pot',
]

const SHAPES: [string, RegExp][] = [
  // A masked address ("ad***@example.com") cannot match: '*' ends no local part here.
  ['email address', /[A-Za-z0-9._%+'-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}\b/g],
  ['JWT', /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g],
  ['password hash', /\$argon2(?:id|i|d)\$/g],
  ['token', /\b[0-9a-f]{64}\b/gi],
]

export interface LogFinding {
  file: string
  line: number
  what: string
  /** The start of the match only, so the report does not spread the secret further. */
  excerpt: string
}

export async function scanServerLog(file: string): Promise<LogFinding[]> {
  const text = await readFile(file, 'utf8').catch(() => '')
  const findings: LogFinding[] = []
  text.split('\n').forEach((content, index) => {
    for (const secret of PLANTED_E2E_SECRETS) {
      if (content.includes(secret)) {
        findings.push({ file, line: index + 1, what: 'planted secret', excerpt: `${secret.slice(0, 4)}…` })
      }
    }
    for (const [what, shape] of SHAPES) {
      for (const match of content.matchAll(shape)) {
        findings.push({ file, line: index + 1, what, excerpt: `${match[0].slice(0, 6)}…` })
      }
    }
  })
  return findings
}

import { MESSAGES } from '@circles/shared'
import { AppError } from './errors'

/**
 * Errors that mean "the database cannot be reached right now", not "this request is wrong": the server
 * is down, restarting or refusing connections. Node's socket codes, PostgreSQL's SQLSTATE classes 08
 * (connection exception) and 57P01–57P03 (shutdown, crash, starting up), and node-postgres's own texts
 * for a connection that ended or could not be made in time.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
])
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300'])
const TEXTS = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
]

function codeOf(error: object): string | undefined {
  const code = (error as { code?: unknown }).code
  return typeof code === 'string' ? code : undefined
}

/** True when `error`, or any error it wraps (drizzle's query error, an AggregateError), is an outage. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false
  const code = codeOf(error)
  if (code && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08'))) return true
  const message = (error as { message?: unknown }).message
  if (typeof message === 'string' && TEXTS.some((text) => message.startsWith(text))) return true
  if (error instanceof AggregateError && error.errors.some((e) => isDatabaseUnavailable(e, depth + 1))) {
    return true
  }
  return isDatabaseUnavailable((error as { cause?: unknown }).cause, depth + 1)
}

/** What a log line may say about an outage: the code and the driver's text, never a query or its values. */
export function outageSummary(error: unknown): { code?: string; reason: string } {
  let current: unknown = error
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = codeOf(current)
    const message = (current as { message?: unknown }).message
    if (
      (code && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08'))) ||
      (typeof message === 'string' && TEXTS.some((text) => message.startsWith(text)))
    ) {
      return { code, reason: typeof message === 'string' ? message : String(code) }
    }
    current = (current as { cause?: unknown }).cause
  }
  return { reason: 'database unavailable' }
}

export const serviceUnavailable = () => new AppError('SERVICE_UNAVAILABLE', MESSAGES.serviceUnavailable)

import { describe, expect, it } from 'vitest'
import { isDatabaseUnavailable, outageSummary } from './database-unavailable'

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code })

describe('isDatabaseUnavailable', () => {
  it('recognises a database that is down, restarting or unreachable', () => {
    expect(isDatabaseUnavailable(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true)
    expect(
      isDatabaseUnavailable(withCode('terminating connection due to administrator command', '57P01')),
    ).toBe(true)
    expect(isDatabaseUnavailable(withCode('the database system is starting up', '57P03'))).toBe(true)
    expect(isDatabaseUnavailable(withCode('connection failure', '08006'))).toBe(true)
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true)
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true)
  })

  it('looks through wrappers: a query error with its cause, an AggregateError of addresses', () => {
    const cause = withCode('terminating connection due to administrator command', '57P01')
    const drizzle = new Error('Failed query: select "password_hash" from "users"\nparams: secret', { cause })
    expect(isDatabaseUnavailable(drizzle)).toBe(true)
    expect(outageSummary(drizzle)).toEqual({ code: '57P01', reason: cause.message })
    const aggregate = new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], '')
    expect(isDatabaseUnavailable(aggregate)).toBe(true)
  })

  it('leaves real faults alone: a constraint, a syntax error, a bug', () => {
    expect(isDatabaseUnavailable(withCode('duplicate key value', '23505'))).toBe(false)
    expect(isDatabaseUnavailable(withCode('syntax error', '42601'))).toBe(false)
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false)
    expect(isDatabaseUnavailable(undefined)).toBe(false)
  })
})

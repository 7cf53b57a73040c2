import { Writable } from 'node:stream'
import Fastify from 'fastify'
import { DrizzleQueryError } from 'drizzle-orm/errors'
import { describe, expect, it } from 'vitest'
import { loggerOptions, maskEmail, scrubLogText, serializeError } from './logging'

/** What node-postgres and PGlite put on a refused statement. */
function databaseError(message: string, fields: Record<string, string>) {
  return Object.assign(new Error(message), { severity: 'ERROR', ...fields })
}

describe('maskEmail', () => {
  it('keeps two characters and the domain', () => {
    expect(maskEmail('ada.lovelace@example.com')).toBe('ad***@example.com')
    expect(maskEmail('a@b.co')).toBe('a***@b.co')
  })
})

describe('scrubLogText', () => {
  it('masks addresses and replaces tokens, JWTs and argon2 hashes, and leaves the rest alone', () => {
    const token = 'ab'.repeat(32)
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJ1c2VySWQiOiJ4In0.c2lnbmF0dXJl'
    const hash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g'
    const text = `550 <grace.hopper@navy.example.mil> rejected; /verify?token=${token} ${jwt} ${hash} id 42`
    const scrubbed = scrubLogText(text)
    expect(scrubbed).toBe('550 <gr***@navy.example.mil> rejected; /verify?token=[hex] [jwt] [hash] id 42')
    expect(scrubLogText(scrubbed)).toBe(scrubbed)
  })
})

describe('serializeError', () => {
  it('drops the parameters of a failed query and the detail of its cause', () => {
    const cause = databaseError('duplicate key value violates unique constraint "users_email_key"', {
      code: '23505',
      constraint: 'users_email_key',
      table: 'users',
      detail: 'Key (email)=(ada@example.com) already exists.',
      where: 'SQL statement',
    })
    const error = new DrizzleQueryError(
      'insert into "users" ("email", "password_hash") values ($1, $2)',
      ['ada@example.com', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', 'the secret message'],
      cause,
    )
    const out = serializeError(error) as Record<string, unknown>
    const text = JSON.stringify(out)
    expect(text).not.toContain('ada@example.com')
    expect(text).not.toContain('argon2')
    expect(text).not.toContain('secret message')
    expect(text).not.toContain('already exists')
    expect(out).toMatchObject({
      type: 'DrizzleQueryError',
      message: 'Failed query: insert into "users" ("email", "password_hash") values ($1, $2)',
      cause: {
        message: 'duplicate key value violates unique constraint "users_email_key"',
        code: '23505',
        constraint: 'users_email_key',
        table: 'users',
      },
    })
    expect(out.stack).toMatch(/^DrizzleQueryError: Failed query: insert into "users".*\n\s+at /)
  })

  it("hides the value PostgreSQL could not parse, and an address in any error's message", () => {
    const uuid = databaseError('invalid input syntax for type uuid: "my secret words"', { code: '22P02' })
    expect(serializeError(uuid)).toMatchObject({ message: 'invalid input syntax for type uuid: [value]' })
    const smtp = new Error("Can't send mail - all recipients were rejected: 550 <ada@example.com>")
    expect(JSON.stringify(serializeError(smtp))).not.toContain('ada@example.com')
  })
})

describe('the logger', () => {
  it('redacts bodies, credentials and typed text, and masks addresses, at every level', async () => {
    let out = ''
    const stream = new Writable({
      write(chunk, _encoding, done) {
        out += String(chunk)
        done()
      },
    })
    const app = Fastify({ logger: loggerOptions('trace', stream) })
    app.log.trace(
      {
        body: { password: 'hunter22' },
        headers: { authorization: 'Bearer abc', cookie: 'sid=1' },
        user: { email: 'ada@example.com', secretMessage: 'the key is under the mat' },
        comment: 'see you at 5',
        err: new DrizzleQueryError('select 1', ['hunter22'], undefined),
      },
      'trace line',
    )
    await app.close()
    expect(out).toContain('"msg":"trace line"')
    expect(out).toContain('ad***@example.com')
    for (const secret of ['hunter22', 'Bearer abc', 'sid=1', 'ada@example.com', 'under the mat', 'see you']) {
      expect(out).not.toContain(secret)
    }
  })
})

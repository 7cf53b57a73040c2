import { MESSAGES, messageKeyOf } from '@circles/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contactMessages } from '../src/db/schema'
import { type TestApp, createTestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const send = (payload: object, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/contact', payload, remoteAddress: ip })

const valid = {
  name: 'Ada',
  email: 'ada@example.com',
  subject: 'support',
  message: 'My circle page shows an error.',
}

describe('POST /api/contact', () => {
  it('stores the message and emails it to CONTACT_EMAIL with the sender as reply-to', async () => {
    const res = await send(valid)
    expect(res.statusCode).toBe(201)
    expect(res.json()).toEqual({ message: MESSAGES.contactSent })
    const stored = await t.database.db.select().from(contactMessages)
    expect(stored).toContainEqual(expect.objectContaining({ name: 'Ada', subject: 'support' }))
    const [mail] = await t.emailsTo('team@circles.test')
    expect(mail?.replyTo).toBe('ada@example.com')
    expect(mail?.textBody).toContain('My circle page shows an error.')
  })

  it.each([
    [{ ...valid, name: '' }, MESSAGES.required],
    [{ ...valid, message: undefined }, MESSAGES.required],
    [{ ...valid, email: 'nope' }, MESSAGES.invalidEmail],
    [{ ...valid, subject: 'ab' }, MESSAGES.subjectRequired],
    [{ ...valid, message: 'too short' }, MESSAGES.messageMin],
  ])('rejects %j', async (payload, message) => {
    const res = await send(payload, '10.0.5.5')
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message, code: 'VALIDATION_ERROR', key: messageKeyOf(message) })
  })

  it('is rate limited per sender email and per address', async () => {
    const sender = { ...valid, email: 'often@example.com' }
    for (let i = 0; i < 5; i++) expect((await send(sender, `10.6.0.${i}`)).statusCode).toBe(201)
    const perEmail = await send(sender, '10.6.0.9')
    expect(perEmail.statusCode).toBe(429)
    expect(perEmail.json()).toMatchObject({
      message: MESSAGES.tooManyRequests,
      retryAfter: expect.any(Number),
    })

    for (let i = 0; i < 20; i++) {
      const res = await send({ ...valid, email: `sender-${i}@example.com` }, '10.6.1.1')
      expect(res.statusCode).toBe(201)
    }
    expect((await send({ ...valid, email: 'sender-x@example.com' }, '10.6.1.1')).statusCode).toBe(429)
  })
})

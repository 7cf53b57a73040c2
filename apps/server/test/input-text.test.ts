import { MESSAGES, messageKeyOf } from '@circles/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SignedIn, addMember, createCircle, signedIn } from './support/circles'
import { createItem, pendingHandover } from './support/handovers'
import { type TestApp, createTestApp } from './support/test-app'

/**
 * Issue 22: a NUL (or another control character, or half a surrogate pair) in any text field answered
 * 500 where the text reached PostgreSQL, which refuses NUL in text. The shared contract now refuses
 * them with a 400 and a message; multi-line fields keep their tabs and line breaks.
 */
let t: TestApp
let admin: SignedIn
let member: SignedIn
let circleId: string
let itemId: string
let handoverId: string

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'off' } })
  admin = await signedIn(t, { name: 'Ada' })
  member = await signedIn(t, { name: 'Max' })
  circleId = (await createCircle(t, admin)).id
  await addMember(t, admin, circleId, member)
  itemId = (await createItem(t, admin, circleId)).id
  const pendingItem = await createItem(t, admin, circleId, 'Tent')
  handoverId = (await pendingHandover(t, admin, member, pendingItem.id)).id
})
afterAll(() => t.close())

type Who = 'admin' | 'member' | 'anonymous'
interface Case {
  method: 'POST' | 'PUT' | 'GET' | 'DELETE'
  /** The path, with :circle, :item and :handover for the seeded ids. */
  url: string
  who: Who
  body: () => Record<string, unknown>
  /** The fields that are text a person typed; each gets the bad character in turn. */
  fields: string[]
  message?: string
}

const email = () => 'someone-new@example.com'
const CASES: Case[] = [
  {
    method: 'POST',
    url: '/api/users/register',
    who: 'anonymous',
    body: () => ({ name: 'Grace', email: email(), password: 'a good password' }),
    fields: ['name', 'password'],
  },
  {
    method: 'POST',
    url: '/api/users/register',
    who: 'anonymous',
    body: () => ({ name: 'Grace', email: email(), password: 'a good password' }),
    fields: ['email'],
    message: MESSAGES.invalidEmail,
  },
  {
    method: 'POST',
    url: '/api/users/login',
    who: 'anonymous',
    body: () => ({ email: admin.user.email, password: 'whatever it is' }),
    fields: ['email'],
    message: MESSAGES.invalidEmail,
  },
  { method: 'PUT', url: '/api/users/me', who: 'admin', body: () => ({ name: 'Ada L' }), fields: ['name'] },
  ...(
    [
      '/api/users/request-password-reset',
      '/api/users/resend-verification',
      '/api/webauthn/login/options',
    ] as const
  ).map((url): Case => ({
    method: 'POST',
    url,
    who: 'anonymous',
    body: () => ({ email: admin.user.email }),
    fields: ['email'],
    message: MESSAGES.invalidEmail,
  })),
  {
    method: 'POST',
    url: '/api/users/reset-password',
    who: 'anonymous',
    body: () => ({
      token: 'f'.repeat(64),
      newPassword: 'a good password',
      confirmPassword: 'a good password',
    }),
    fields: ['newPassword'],
  },
  {
    method: 'POST',
    url: '/api/contact',
    who: 'anonymous',
    body: () => ({
      name: 'Ada',
      email: 'ada@example.com',
      subject: 'support',
      message: 'My page shows an error.',
    }),
    fields: ['name', 'subject', 'message'],
  },
  {
    method: 'POST',
    url: '/api/circles',
    who: 'member',
    body: () => ({ name: 'Garden club', description: 'Spades and rakes' }),
    fields: ['name', 'description'],
  },
  {
    method: 'PUT',
    url: '/api/circles/:circle',
    who: 'admin',
    body: () => ({ name: 'Garden club', description: 'Spades and rakes' }),
    fields: ['name', 'description'],
  },
  ...(['users', 'invitations/qr'] as const).map((path): Case => ({
    method: 'POST',
    url: `/api/circles/:circle/${path}`,
    who: 'admin',
    body: () => ({ email: email() }),
    fields: ['email'],
    message: MESSAGES.invalidEmail,
  })),
  {
    method: 'POST',
    url: '/api/items',
    who: 'admin',
    body: () => ({ name: 'Ladder', description: 'Three metres', circleId }),
    fields: ['name', 'description'],
  },
  {
    method: 'PUT',
    url: '/api/items/:item',
    who: 'admin',
    body: () => ({ name: 'Ladder', description: 'Three metres' }),
    fields: ['name', 'description', 'imageUrl'],
  },
  {
    method: 'POST',
    url: '/api/handovers',
    who: 'admin',
    body: () => ({
      itemId,
      receiverId: member.user.id,
      requesterComment: 'Take care',
      secretMessage: 'Code 1234',
    }),
    fields: ['requesterComment', 'secretMessage'],
  },
  {
    method: 'PUT',
    url: '/api/handovers/:handover/status',
    who: 'member',
    body: () => ({ status: 'REJECTED', receiverComment: 'Not now' }),
    fields: ['receiverComment'],
  },
]

const headersOf = (who: Who) => (who === 'admin' ? admin.auth : who === 'member' ? member.auth : {})
const urlOf = (c: Case) =>
  c.url.replace(':circle', circleId).replace(':item', itemId).replace(':handover', handoverId)
const send = (c: Case, body: Record<string, unknown>) =>
  t.app.inject({ method: c.method, url: urlOf(c), headers: headersOf(c.who), payload: body })

const rows = CASES.flatMap((c) =>
  c.fields.flatMap((field) =>
    [
      ['NUL', 'Bad\u0000value'],
      ['ESC', 'Bad\u001bvalue'],
      ['DEL', 'Bad\u007fvalue'],
      ['a lone surrogate', 'Bad\ud800value'],
    ].map(([what, value]) => [`${c.method} ${c.url} ${field} with ${what}`, { c, field, value }] as const),
  ),
)

describe('text fields refuse control characters and lone surrogates', () => {
  it.each(rows)('%s', async (_name, { c, field, value }) => {
    const res = await send(c, { ...c.body(), [field]: value })
    expect({ field, status: res.statusCode, body: res.json() }).toEqual({
      field,
      status: 400,
      body: {
        message: c.message ?? MESSAGES.invalidCharacters,
        code: 'VALIDATION_ERROR',
        key: messageKeyOf(c.message ?? MESSAGES.invalidCharacters),
      },
    })
  })

  it('keeps tabs and line breaks in multi-line fields, and refuses them inside a one-line field', async () => {
    const description = 'First line\r\nSecond line\n\tindented'
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/items/${itemId}`,
      headers: admin.auth,
      payload: { name: 'Ladder', description },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().item.description).toBe(description)

    const oneLine = await t.app.inject({
      method: 'PUT',
      url: `/api/items/${itemId}`,
      headers: admin.auth,
      payload: { name: 'Lad\nder' },
    })
    expect(oneLine.json()).toEqual({
      message: MESSAGES.invalidCharacters,
      code: 'VALIDATION_ERROR',
      key: 'invalidCharacters',
    })
    // A bare CR is no line break of ours.
    const bareCr = await t.app.inject({
      method: 'PUT',
      url: `/api/items/${itemId}`,
      headers: admin.auth,
      payload: { name: 'Ladder', description: 'a\rb' },
    })
    expect(bareCr.statusCode).toBe(400)
  })

  it('still takes what people write: accents, emoji, right-to-left text, and a name pasted with a newline at its end', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me',
      headers: admin.auth,
      payload: { name: 'Zoë 😀 שלום\n' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json().user.name).toBe('Zoë 😀 שלום')
  })
})

describe('path parameters and URLs', () => {
  it.each([
    [`/api/circles/${'%00'}`, 404, MESSAGES.notFound],
    [`/api/items/abc%00def`, 404, MESSAGES.notFound],
    [`/api/handovers/item/%ED%A0%80`, 400, MESSAGES.invalidUrl],
    [`/api/users/status/not-a-uuid%00`, 400, MESSAGES.invalidUserId],
    [`/api/blockchain/${'x'.repeat(300)}`, 400, MESSAGES.invalidUrl],
  ])('GET %s answers %i with a message', async (url, status, message) => {
    const res = await t.app.inject({ method: 'GET', url, headers: admin.auth })
    expect(res.statusCode).toBe(status)
    expect(res.json()).toMatchObject({ message })
  })

  it('a passkey id with a NUL is not found, and a sign-in whose challenge holds one fails as a sign-in', async () => {
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/webauthn/credentials/ab%00cd',
      headers: admin.auth,
    })
    expect(del.statusCode).toBe(404)
    expect(del.json()).toMatchObject({ message: MESSAGES.notFound })

    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.get', challenge: 'ab\u0000cd', origin: 'http://localhost:3000' }),
    ).toString('base64url')
    const verify = await t.app.inject({
      method: 'POST',
      url: '/api/webauthn/login/verify',
      payload: {
        credential: { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON } },
      },
    })
    expect(verify.statusCode).toBeLessThan(500)
    expect(verify.json()).toMatchObject({ message: MESSAGES.passkeyAuthenticationFailed })
  })
})

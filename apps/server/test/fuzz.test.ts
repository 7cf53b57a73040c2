import { ERROR_CODES, MESSAGES, type MessageKey, messageKeyOf, ZErrorResponse } from '@circles/shared'
import fc from 'fast-check'
import type { InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod/mini'
import { hashPassword } from '../src/lib/passwords'
import { createSessionTokens } from '../src/modules/auth/session-token'
import { insertUser } from '../src/modules/users/users.repository'
import type { SignedIn } from './support/circles'
import { createCircle, qrInvitation } from './support/circles'
import { uniqueEmail } from './support/factories'
import { createItem, handOver, pendingHandover } from './support/handovers'
import { multipart, pictureBytes } from './support/images'
import { type ApiRoute, createTestAppWithRoutes } from './support/routes'
import { TEST_JWT_SECRET, type TestApp, tokenFromEmail } from './support/test-app'

/**
 * Issue 22: every route of the API, fed what a careless client or an attacker sends, generated from the
 * route's own zod schemas: wrong types, missing and extra fields, 1 MB strings, NUL and other controls,
 * lone surrogates, bidi overrides, huge and negative numbers, ids that are not UUIDs, malformed JSON,
 * wrong content types and multipart garbage; as a member with real ids (so requests reach the services
 * and the database) and anonymously. No answer may be a 5xx, every 4xx is the app's error shape with a
 * message and its key, and the app answers /api/health after each route.
 *
 * Seeded: FUZZ_SEED=<n> reproduces a run, FUZZ_RUNS=<n> changes its length (25 per route by default).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 22)
const RUNS = Number(process.env.FUZZ_RUNS ?? 25)

/** What a path parameter names, so the fuzz can put a real one there. */
type Ref =
  | 'circle'
  | 'item'
  | 'pendingItem'
  | 'movedItem'
  | 'handover'
  | 'confirmedHandover'
  | 'invitation'
  | 'invitationToken'
  | 'admin'
  | 'member'
  | 'outsider'
  | 'block'
  | 'resetToken'
  | 'verifyToken'
  | 'imageFile'
  | 'avatarFile'
  | 'credential'
  | 'borrowRequest'
  | 'loan'
  | 'extension'
  | 'calendarToken'
  | 'itemCode'
  | 'conditionPhoto'
  | 'conditionFile'

interface FuzzEntry {
  /** Real values for each path parameter (the fuzz also tries random UUIDs and garbage). */
  params?: Record<string, Ref[]>
  /** The route takes a multipart upload. */
  multipart?: boolean
}

/**
 * One entry per API route. A route without an entry fails the test: add one (with the real ids its
 * parameters name) when you add a route.
 */
const FUZZ: Record<string, FuzzEntry> = {
  'GET /api/health': {},
  'GET /api/ready': {},
  'POST /api/contact': {},
  // users
  'POST /api/users/register': {},
  'POST /api/users/login': {},
  'GET /api/users/status/:id': { params: { id: ['admin', 'member', 'outsider'] } },
  'GET /api/users/me': {},
  'PUT /api/users/me': {},
  'GET /api/users/me/notifications': {},
  'PUT /api/users/me/notifications': {},
  'PUT /api/users/me/password': {},
  'POST /api/users/unsubscribe': {},
  'POST /api/users/request-password-reset': {},
  'GET /api/users/verify-reset-token/:token': { params: { token: ['resetToken'] } },
  'POST /api/users/reset-password': {},
  'GET /api/users/verify/:token': { params: { token: ['verifyToken'] } },
  'POST /api/users/resend-verification': {},
  'PUT /api/users/me/avatar': { multipart: true },
  'DELETE /api/users/me/avatar': {},
  'GET /api/users/avatars/:file': { params: { file: ['avatarFile'] } },
  // circles and invitations
  'GET /api/circles/': {},
  'POST /api/circles/': {},
  'GET /api/circles/invitations/:token/verify': { params: { token: ['invitationToken'] } },
  'POST /api/circles/invitations/:token': { params: { token: ['invitationToken'] } },
  'GET /api/circles/:id': { params: { id: ['circle'] } },
  'PUT /api/circles/:id': { params: { id: ['circle'] } },
  'POST /api/circles/:id/users': { params: { id: ['circle'] } },
  'DELETE /api/circles/:id/users/:userId': {
    params: { id: ['circle'], userId: ['member', 'admin', 'outsider'] },
  },
  'POST /api/circles/:id/transfer': { params: { id: ['circle'] } },
  'POST /api/circles/:id/leave': { params: { id: ['circle'] } },
  'POST /api/circles/:id/invitations/qr': { params: { id: ['circle'] } },
  'GET /api/circles/:id/invitations': { params: { id: ['circle'] } },
  'POST /api/circles/:id/invitations/:invId/resend': {
    params: { id: ['circle'], invId: ['invitation'] },
  },
  'DELETE /api/circles/:id/invitations/:invId': { params: { id: ['circle'], invId: ['invitation'] } },
  // items
  'GET /api/items/my-items': {},
  'GET /api/items/': {},
  'GET /api/items/circle/:id': { params: { id: ['circle'] } },
  'GET /api/items/image/:file': { params: { file: ['imageFile'] } },
  'GET /api/items/by-code/:code': { params: { code: ['itemCode'] } },
  'GET /api/items/:id': { params: { id: ['item', 'pendingItem', 'movedItem'] } },
  'GET /api/items/:id/ownership-status': { params: { id: ['item', 'movedItem'] } },
  'POST /api/items/': {},
  'PUT /api/items/:id': { params: { id: ['item', 'pendingItem', 'movedItem'] } },
  'DELETE /api/items/:id': { params: { id: ['item', 'pendingItem', 'movedItem'] } },
  'POST /api/items/:itemId/image': { params: { itemId: ['item'] }, multipart: true },
  // handovers
  'GET /api/handovers/': {},
  'GET /api/handovers/item/:id': { params: { id: ['item', 'pendingItem', 'movedItem'] } },
  'POST /api/handovers/': {},
  'PUT /api/handovers/:id/status': { params: { id: ['handover', 'confirmedHandover'] } },
  'DELETE /api/handovers/:id': { params: { id: ['handover', 'confirmedHandover'] } },
  // condition photos (issue 28)
  'POST /api/handovers/photos': { multipart: true },
  'DELETE /api/handovers/photos/:id': { params: { id: ['conditionPhoto'] } },
  'GET /api/handovers/photos/:file': { params: { file: ['conditionFile'] } },
  // asks to borrow (issue 26)
  'POST /api/items/:id/borrow-requests': { params: { id: ['item', 'pendingItem', 'movedItem'] } },
  'GET /api/items/:id/borrow-requests': { params: { id: ['item', 'movedItem'] } },
  'GET /api/borrow-requests': {},
  'PUT /api/borrow-requests/:id': { params: { id: ['borrowRequest'] } },
  'DELETE /api/borrow-requests/:id': { params: { id: ['borrowRequest'] } },
  // loans (issue 26)
  'GET /api/loans/': {},
  'GET /api/loans/:id': { params: { id: ['loan'] } },
  'PATCH /api/loans/:id': { params: { id: ['loan'] } },
  'POST /api/loans/:id/return': { params: { id: ['loan'] } },
  'POST /api/loans/:id/extensions': { params: { id: ['loan'] } },
  'PUT /api/loans/:id/extensions/:extensionId': { params: { id: ['loan'], extensionId: ['extension'] } },
  'DELETE /api/loans/:id/extensions/:extensionId': { params: { id: ['loan'], extensionId: ['extension'] } },
  // ledger
  'GET /api/blockchain/': {},
  'GET /api/blockchain/verify/:circleId': { params: { circleId: ['circle'] } },
  'GET /api/blockchain/item/:itemId': { params: { itemId: ['movedItem', 'item'] } },
  'GET /api/blockchain/circle/:circleId': { params: { circleId: ['circle'] } },
  'GET /api/blockchain/:id': { params: { id: ['block'] } },
  'GET /api/ledger/keys': {},
  'GET /api/ledger/:circleId/checkpoint': { params: { circleId: ['circle'] } },
  'GET /api/ledger/:circleId/proof/inclusion': { params: { circleId: ['circle'] } },
  'GET /api/ledger/:circleId/proof/inclusions': { params: { circleId: ['circle'] } },
  'GET /api/ledger/:circleId/proof/consistency': { params: { circleId: ['circle'] } },
  'GET /api/ledger/:circleId/tile/*': { params: { circleId: ['circle'] } },
  'GET /api/ledger/:circleId/tile/entries/*': { params: { circleId: ['circle'] } },
  'GET /api/ledger/:circleId/export': { params: { circleId: ['circle'] } },
  // witnesses (issue 29)
  'GET /api/ledger/witness-keys': {},
  'POST /api/ledger/witness-keys': {},
  'DELETE /api/ledger/witness-keys/:deviceId': {},
  'GET /api/ledger/:circleId/witnesses': { params: { circleId: ['circle'] } },
  'POST /api/ledger/:circleId/cosignatures': { params: { circleId: ['circle'] } },
  // dashboard
  'GET /api/activities/recent': {},
  'GET /api/dashboard/stats': {},
  // passkeys
  'GET /api/webauthn/register/options': {},
  'POST /api/webauthn/register/verify': {},
  'POST /api/webauthn/login/options': {},
  'POST /api/webauthn/login/verify': {},
  'GET /api/webauthn/credentials': {},
  'POST /api/webauthn/reauth/options': {},
  // account deletion (issue 24)
  'GET /api/users/me/deletion': {},
  'POST /api/users/me/delete': {},
  // OpenAPI documentation
  'GET /api/docs/': {},
  'GET /api/docs/json': {},
  'GET /api/docs/yaml': {},
  'GET /api/docs/static/*': { params: { '*': [] } },
  'GET /api/docs/static/index.html': {},
  'GET /api/docs/static/swagger-initializer.js': {},
  'DELETE /api/webauthn/credentials/:id': { params: { id: ['credential'] } },
  // "Download my data" (docs/decisions/0038)
  'GET /api/users/me/export': {},
  'PATCH /api/webauthn/credentials/:id': { params: { id: ['credential'] } },
  // issue 26: the time zone and the calendar feed (h-reminders)
  'GET /api/users/me/time-zone': {},
  'PUT /api/users/me/time-zone': {},
  'GET /api/users/me/calendar': {},
  'POST /api/users/me/calendar': {},
  'DELETE /api/users/me/calendar': {},
  'GET /api/calendar/:token': { params: { token: ['calendarToken'] } },
  // issue 27: Web Push (h-push)
  'GET /api/push/key': {},
  'POST /api/push/subscriptions': {},
  'POST /api/push/subscriptions/status': {},
  'DELETE /api/push/subscriptions': {},
}

// ---------------------------------------------------------------------------------------------------
// The world each route is fuzzed in: a circle with an admin and a member, an item of each kind, a
// pending and a confirmed handover (so a block), a pending invitation, a picture and email tokens.

interface World {
  admin: SignedIn
  member: SignedIn
  outsider: SignedIn
  refs: Record<Ref, string[]>
  emails: string[]
  ids: string[]
}

let t: TestApp
let routes: ApiRoute[]
let passwordHash: string
const PASSWORD = 'correct horse battery'
const sessions = createSessionTokens(TEST_JWT_SECRET)

beforeAll(async () => {
  ;({ t, routes } = await createTestAppWithRoutes({ env: { RATE_LIMITS: 'off' } }))
  passwordHash = await hashPassword(PASSWORD)
})
afterAll(() => t?.close())

/** A verified user without hashing a password each time (the fuzz makes many). */
async function quickUser(name: string): Promise<SignedIn> {
  const user = await insertUser(t.database.db, {
    name,
    email: uniqueEmail(name.toLowerCase()),
    passwordHash,
    emailVerified: true,
    language: 'en',
  })
  if (!user) throw new Error('quickUser')
  const token = sessions.issue({ userId: user.id, sv: user.sessionVersion })
  return { user: { ...user, password: PASSWORD }, auth: { authorization: `Bearer ${token}` } }
}

let picture: Buffer
let readOnlyWorld: World | undefined
async function seedWorld(): Promise<World> {
  picture ??= await pictureBytes('png', 48, 32)
  const [admin, member, outsider] = [
    await quickUser('Admin'),
    await quickUser('Member'),
    await quickUser('Outsider'),
  ]
  const circle = await createCircle(t, admin)
  const { token: memberToken } = await qrInvitation(t, admin, circle.id, member.user.email)
  await t.app.inject({ method: 'POST', url: `/api/circles/invitations/${memberToken}`, headers: member.auth })
  const item = await createItem(t, admin, circle.id, 'Ladder')
  const pendingItem = await createItem(t, admin, circle.id, 'Drill')
  const movedItem = await createItem(t, admin, circle.id, 'Tent')
  const pending = await pendingHandover(t, admin, member, pendingItem.id, { secretMessage: 'code 1234' })
  const confirmed = await handOver(t, admin, member, movedItem.id, { requesterComment: 'enjoy' })
  const invitation = await qrInvitation(t, admin, circle.id, uniqueEmail('invitee'))
  const ask = await t.app.inject({
    method: 'POST',
    url: `/api/items/${item.id}/borrow-requests`,
    headers: member.auth,
    payload: { wishedUntil: new Date(Date.now() + 7 * 86_400_000).toISOString(), message: 'May I?' },
  })
  if (ask.statusCode !== 201) throw new Error(`ask: ${ask.statusCode} ${ask.body}`)
  const borrowRequestId = (ask.json() as { borrowRequest: { id: string } }).borrowRequest.id
  // Issue 26: a loan of the admin's saw to the member, with the member's wish for a later date.
  const lentItem = await createItem(t, admin, circle.id, 'Saw')
  const week = 7 * 24 * 3600_000
  const lending = await pendingHandover(t, admin, member, lentItem.id, {
    kind: 'LOAN',
    dueAt: new Date(Date.now() + week).toISOString(),
  })
  const lent = await t.app.inject({
    method: 'PUT',
    url: `/api/handovers/${lending.id}/status`,
    headers: member.auth,
    payload: { status: 'CONFIRMED' },
  })
  const loanId = (lent.json() as { handover: { loanId: string } }).handover.loanId
  const wish = await t.app.inject({
    method: 'POST',
    url: `/api/loans/${loanId}/extensions`,
    headers: member.auth,
    payload: { dueAt: new Date(Date.now() + 2 * week).toISOString() },
  })
  const extensionId = (wish.json() as { extension: { id: string } }).extension.id
  const form = multipart('image', { name: 'p.png', type: 'image/png', bytes: picture })
  const upload = await t.app.inject({
    method: 'POST',
    url: `/api/items/${item.id}/image`,
    headers: { ...admin.auth, ...form.headers },
    payload: form.payload,
  })
  if (upload.statusCode !== 200) throw new Error(`upload: ${upload.statusCode} ${upload.body}`)
  const imageUrl = (upload.json() as { imageUrl: string }).imageUrl
  const photoForm = multipart('image', { name: 'c.png', type: 'image/png', bytes: picture })
  const conditionUpload = await t.app.inject({
    method: 'POST',
    url: '/api/handovers/photos',
    headers: { ...admin.auth, ...photoForm.headers },
    payload: photoForm.payload,
  })
  if (conditionUpload.statusCode !== 201)
    throw new Error(`condition photo: ${conditionUpload.statusCode} ${conditionUpload.body}`)
  const conditionPhoto = (conditionUpload.json() as { photo: { id: string; url: string } }).photo
  const avatarForm = multipart('image', { name: 'me.png', type: 'image/png', bytes: picture })
  const avatar = await t.app.inject({
    method: 'PUT',
    url: '/api/users/me/avatar',
    headers: { ...admin.auth, ...avatarForm.headers },
    payload: avatarForm.payload,
  })
  if (avatar.statusCode !== 200) throw new Error(`avatar: ${avatar.statusCode} ${avatar.body}`)
  const avatarUrl = (avatar.json() as { user: { avatarUrl: string } }).user.avatarUrl
  const blocks = await t.app.inject({
    method: 'GET',
    url: `/api/blockchain/circle/${circle.id}`,
    headers: admin.auth,
  })
  const blockIds = (blocks.json() as { blocks: { id: string }[] }).blocks.map((b) => b.id)
  await t.app.inject({
    method: 'POST',
    url: '/api/users/request-password-reset',
    payload: { email: outsider.user.email },
  })
  const [resetMail] = await t.emailsTo(outsider.user.email)
  const feed = await t.app.inject({ method: 'POST', url: '/api/users/me/calendar', headers: admin.auth })
  const feedUrl = (feed.json() as { url: string }).url
  const refs: Record<Ref, string[]> = {
    circle: [circle.id],
    item: [item.id],
    pendingItem: [pendingItem.id],
    movedItem: [movedItem.id],
    handover: [pending.id],
    confirmedHandover: [confirmed.id],
    invitation: [invitation.id],
    invitationToken: [invitation.token],
    admin: [admin.user.id],
    member: [member.user.id],
    outsider: [outsider.user.id],
    block: blockIds,
    resetToken: resetMail ? [tokenFromEmail(resetMail.textBody, '/reset-password')] : ['0'.repeat(64)],
    verifyToken: ['a'.repeat(64)],
    imageFile: [imageUrl.split('/').pop() ?? 'x', (imageUrl.split('/').pop() ?? 'x').replace('.', '-small.')],
    avatarFile: [avatarUrl.split('/').pop() ?? 'x'],
    credential: ['AAAA', 'bm90LWEtY3JlZGVudGlhbA'],
    borrowRequest: [borrowRequestId],
    loan: [loanId],
    extension: [extensionId],
    calendarToken: [feedUrl.split('/').pop() ?? 'x.ics'],
    itemCode: [item.code, movedItem.code.toLowerCase()],
    conditionPhoto: [conditionPhoto.id],
    conditionFile: [conditionPhoto.url.split('/').pop() ?? 'x'],
  }
  const ids = [circle.id, item.id, pendingItem.id, movedItem.id, pending.id, confirmed.id, invitation.id]
  ids.push(borrowRequestId)
  ids.push(admin.user.id, member.user.id, outsider.user.id, ...blockIds, loanId, extensionId)
  return {
    admin,
    member,
    outsider,
    refs,
    emails: [admin.user.email, member.user.email, outsider.user.email, invitation.email],
    ids,
  }
}

// ---------------------------------------------------------------------------------------------------
// Hostile values.

const MB = 1024 * 1024
const HOSTILE_CHARS = [
  '\u0000',
  '\u0001',
  '\u0008',
  '\u000b',
  '\u001b',
  '\u007f',
  '\u0085',
  '\ud800',
  '\udfff',
  '\udc00\ud800',
  '\u202e',
  '\u2066',
  '\u200b',
  '\ufeff',
  '\uffff',
  '\r\n',
  '\t',
  '\n',
  '%00',
  '\\u0000',
  "'; drop table users; --",
  '😀',
  'e\u0301',
]
/** NUL most often: PostgreSQL refuses it in text, so it is the one that reached a 500. */
const hostileChar = fc.oneof(
  { weight: 3, arbitrary: fc.constant('\u0000') },
  { weight: 1, arbitrary: fc.constantFrom('\ud800', '\udfff') },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_CHARS) },
)
const longStrings = fc.constantFrom(
  'a'.repeat(101),
  'a'.repeat(1001),
  'a'.repeat(2001),
  'a'.repeat(5001),
  'a'.repeat(60_000),
)

/** A plausible text with a hostile character somewhere in it. */
const spiked = (plausible: fc.Arbitrary<string>) =>
  fc.tuple(plausible, hostileChar, fc.nat()).map(([text, bad, at]) => {
    const i = text.length ? at % (text.length + 1) : 0
    return text.slice(0, i) + bad + text.slice(i)
  })

const anyJson = fc.jsonValue({ maxDepth: 2 })
const hugeNumbers = fc.constantFrom(
  -1,
  0,
  1,
  0.5,
  -0.0001,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31),
  2 ** 53,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER + 2,
  1e308,
  -1e308,
  5e-324,
)

interface Hints {
  world: World
  key?: string
}

/** Plausible text for a field, chosen by its name, so a request often passes the schema but one field. */
function plausibleText(h: Hints): fc.Arbitrary<string> {
  const key = (h.key ?? '').toLowerCase()
  const { world } = h
  if (key.includes('email')) return fc.oneof(fc.constantFrom(...world.emails), fc.emailAddress())
  if (key.includes('password')) return fc.constantFrom(PASSWORD, 'another password 1')
  if (key.includes('token'))
    return fc.constantFrom(...world.refs.invitationToken, ...world.refs.resetToken, 'f'.repeat(64))
  if (key === 'clientdatajson')
    return spiked(fc.constantFrom('c2VjcmV0', 'Y2hhbGxlbmdl')).map((challenge) =>
      Buffer.from(
        JSON.stringify({ type: 'webauthn.get', challenge, origin: 'http://localhost:3000' }),
      ).toString('base64url'),
    )
  if (key === 'subject') return fc.constantFrom('support', 'general', 'other')
  if (key === 'status') return fc.constantFrom('CONFIRMED', 'REJECTED')
  if (key === 'imageurl')
    return fc.constantFrom(`/api/items/image/${world.refs.imageFile[0]}`, 'http://evil.test/x.png')
  if (['message', 'description', 'requestercomment', 'receivercomment', 'secretmessage'].includes(key))
    return fc.constantFrom('A long enough message\nwith a second line', 'Tools we share', '')
  return fc.constantFrom('Hedge trimmer', 'Ada Lovelace', 'Makerspace', 'x', '')
}

function textArb(h: Hints, pattern?: RegExp): fc.Arbitrary<string> {
  const plausible = pattern ? fc.stringMatching(pattern) : plausibleText(h)
  return fc.oneof(
    { weight: 4, arbitrary: plausible },
    { weight: 4, arbitrary: spiked(plausible) },
    { weight: 1, arbitrary: longStrings },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  )
}

function uuidArb(h: Hints): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...h.world.ids) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.constantFrom(...h.world.ids).map((id) => id.toUpperCase()) },
    { weight: 2, arbitrary: spiked(fc.constantFrom(...h.world.ids)) },
    { weight: 1, arbitrary: fc.constantFrom('00000000-0000-0000-0000-000000000000', 'not-a-uuid', '') },
  )
}

type Def = { type: string; [key: string]: unknown }
const defOf = (schema: z.ZodMiniType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

/** A value for the schema: mostly shaped like it, with hostile leaves, wrong types, and missing or extra keys. */
function valueArb(schema: z.ZodMiniType, h: Hints, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(schema)
  const wrong = anyJson
  const mix = (arb: fc.Arbitrary<unknown>) =>
    fc.oneof({ weight: 9, arbitrary: arb }, { weight: 1, arbitrary: wrong })
  switch (def.type) {
    case 'string': {
      if (def.format === 'uuid') return mix(uuidArb(h))
      const checks =
        (def.checks as { _zod: { def: { format?: string; pattern?: RegExp } } }[] | undefined) ?? []
      const regex = checks.map((c) => c._zod.def).find((c) => c.format === 'regex')?.pattern
      return mix(textArb(h, regex && !/email/i.test(h.key ?? '') ? regex : undefined))
    }
    case 'number':
      return fc.oneof(
        fc.integer({ min: -5, max: 20 }),
        hugeNumbers,
        wrong,
        ...(def.coerce
          ? [hugeNumbers.map(String), fc.constantFrom('1e400', '-0', 'NaN', '0x10', ' 3 ')]
          : []),
      )
    case 'boolean':
      return mix(fc.boolean())
    case 'enum':
      return mix(
        fc.oneof(fc.constantFrom(...Object.values(def.entries as object)), spiked(fc.constant('COMPLETE'))),
      )
    case 'literal':
      return mix(fc.constantFrom(...(def.values as unknown[])))
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return fc.oneof(fc.constant(undefined), valueArb(def.innerType as z.ZodMiniType, h, depth))
    case 'nullable':
      return fc.oneof(fc.constant(null), valueArb(def.innerType as z.ZodMiniType, h, depth))
    case 'pipe': {
      const input = def.in as z.ZodMiniType
      return valueArb(defOf(input).type === 'transform' ? (def.out as z.ZodMiniType) : input, h, depth)
    }
    case 'array':
      return mix(fc.array(valueArb(def.element as z.ZodMiniType, h, depth + 1), { maxLength: 3 }))
    case 'union':
      return fc.oneof(...(def.options as z.ZodMiniType[]).map((o) => valueArb(o, h, depth)))
    case 'object': {
      const shape = def.shape as Record<string, z.ZodMiniType>
      const fields = Object.fromEntries(
        Object.entries(shape).map(([key, s]) => [key, valueArb(s, { ...h, key }, depth + 1)]),
      )
      const record = fc.record(fields, { requiredKeys: [] })
      const complete = fc.record(fields)
      const extra = fc.dictionary(
        fc.constantFrom('extra', '__proto__', 'constructor', 'isAdmin', 'adminId', 'ownerId', 'id', '\u0000'),
        anyJson,
        { maxKeys: 2 },
      )
      return mix(
        fc
          .tuple(
            fc.oneof({ weight: 3, arbitrary: complete }, { weight: 1, arbitrary: record }),
            extra,
            fc.nat(3),
          )
          .map(([obj, more, n]) => (n === 0 ? { ...more, ...obj } : obj)),
      )
    }
    default:
      return anyJson
  }
}

/** Real ids for a body field, by its name, so a request names things that exist. */
function idsFor(h: Hints): string[] {
  const { refs } = h.world
  switch (h.key) {
    case 'circleId':
      return refs.circle
    case 'itemId':
      return [...refs.item, ...refs.pendingItem]
    case 'receiverId':
    case 'userId':
      return [...refs.member, ...refs.admin]
    default:
      return h.world.ids
  }
}

/** A value the schema accepts (mostly): the base that one mutation then spoils in one place. */
function plausibleArb(schema: z.ZodMiniType, h: Hints): fc.Arbitrary<unknown> {
  const def = defOf(schema)
  switch (def.type) {
    case 'string': {
      if (def.format === 'uuid') return fc.constantFrom(...idsFor(h))
      const checks =
        (def.checks as { _zod: { def: { format?: string; pattern?: RegExp } } }[] | undefined) ?? []
      const regex = checks.map((c) => c._zod.def).find((c) => c.format === 'regex')?.pattern
      if (regex && !/email/i.test(h.key ?? '')) return fc.stringMatching(regex)
      return plausibleText(h).filter((v) => v.length >= 3)
    }
    case 'number':
      return fc.integer({ min: 0, max: 3 }).map((n) => (def.coerce ? String(n) : n))
    case 'boolean':
      return fc.boolean()
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as object))
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]))
    case 'optional':
    case 'default':
    case 'nullable':
      // Optional fields come and go: some (an item's picture) are refused unless they fit.
      return fc.oneof(fc.constant(undefined), plausibleArb(def.innerType as z.ZodMiniType, h))
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return plausibleArb(def.innerType as z.ZodMiniType, h)
    case 'pipe': {
      const input = def.in as z.ZodMiniType
      return plausibleArb(defOf(input).type === 'transform' ? (def.out as z.ZodMiniType) : input, h)
    }
    case 'array':
      return fc.array(plausibleArb(def.element as z.ZodMiniType, h), { minLength: 1, maxLength: 2 })
    case 'union':
      return plausibleArb((def.options as z.ZodMiniType[])[0] as z.ZodMiniType, h)
    case 'object':
      return fc.record(
        Object.fromEntries(
          Object.entries(def.shape as Record<string, z.ZodMiniType>).map(([key, s]) => [
            key,
            plausibleArb(s, { ...h, key }),
          ]),
        ),
      )
    default:
      return fc.constant('x')
  }
}

type Path = (string | number)[]
function stringLeaves(value: unknown, path: Path = []): Path[] {
  if (typeof value === 'string') return [path]
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) =>
      stringLeaves(v, [...path, Array.isArray(value) ? Number(k) : k]),
    )
  return []
}

/** The plausible value with one text in it spiked with a hostile character: the deepest reach. */
function oneMutation(base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.tuple(base, fc.nat(), spiked(fc.constant(''))).map(([value, n, bad]) => {
    const leaves = stringLeaves(value)
    if (!leaves.length) return value
    const path = leaves[n % leaves.length] as Path
    const copy = structuredClone(value) as Record<string | number, unknown>
    let parent = copy
    for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>
    const last = path[path.length - 1] as string | number
    const text = String(parent[last])
    const at = n % (text.length + 1)
    parent[last] = text.slice(0, at) + bad + text.slice(at)
    return copy
  })
}

// ---------------------------------------------------------------------------------------------------
// Requests.

interface FuzzRequest {
  who: 'admin' | 'member' | 'outsider' | 'anonymous' | 'badToken'
  url: string
  payload?: string | Buffer | object
  contentType?: string
  summary: string
}

const RAW_SEGMENTS = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%C0%80',
  '%E2%80%AE',
  '%',
  '%zz',
  '..',
  '%2e%2e%2f',
  '-1',
  '1e308',
  'null',
  'undefined',
  '00000000-0000-0000-0000-000000000000',
  '%20',
  'x'.repeat(5000),
]

function segmentArb(refs: Ref[] | undefined, h: Hints): fc.Arbitrary<string> {
  const real = refs?.length ? refs.flatMap((r) => h.world.refs[r]) : h.world.ids
  const encoded = (s: string) => {
    try {
      return encodeURIComponent(s)
    } catch {
      return '%ED%B0%80'
    }
  }
  return fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...real) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    { weight: 2, arbitrary: spiked(fc.constantFrom(...real)).map(encoded) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encoded) },
  )
}

const encodeQuery = (value: unknown): string => {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return `q=${encodeQueryValue(value)}`
  return Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(
      ([k, v]) => `${encodeQueryValue(k)}=${encodeQueryValue(typeof v === 'object' ? JSON.stringify(v) : v)}`,
    )
    .join('&')
}
function encodeQueryValue(v: unknown): string {
  try {
    return encodeURIComponent(String(v))
  } catch {
    return '%ED%A0%80'
  }
}

const RAW_QUERIES = [
  '%00=%00',
  'index=%ED%A0%80&size=1',
  'index=1e400&size=-1',
  `indexes=${'1,'.repeat(600)}1&size=3`,
  'indexes=&size=',
  'a[b][c]=1&a=2',
  'token=%00',
  'token=' + 'a'.repeat(5000),
  'from=2&to=1',
  '__proto__[x]=1',
  // the item search's query (issue 23): LIKE wildcards, a backslash, numbers in disguise, repeats
  'q=%25%5F%5C&sort=name&limit=1e2&offset=-0',
  'q=' + '%F0%9F%94%A7'.repeat(60) + '&state=on-loan&sort=recent-handover',
  'holder=me&holder=me&circle=00000000-0000-0000-0000-000000000000',
  'q=%E2%80%AE%C2%A0&state=available&limit=100&offset=100000',
  'q[]=drill&limit=0x10&offset=1.5',
]

function queryArb(route: ApiRoute, h: Hints): fc.Arbitrary<string> {
  const generated = route.schema.querystring
    ? valueArb(route.schema.querystring, h).map(encodeQuery)
    : fc.constant('')
  return fc.oneof(
    { weight: 5, arbitrary: generated },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_QUERIES) },
    { weight: 2, arbitrary: fc.constant('') },
  )
}

const MALFORMED_JSON = [
  '{',
  '{"a":',
  'nul',
  '[',
  '"\\ud800"',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '1e999999',
  '['.repeat(5000) + ']'.repeat(5000),
  '\u0000',
  '\ufeff{}',
  '{"name":"a\u0000b"}',
  '{"name":"\\u0000"}',
  '',
  ' ',
  'null',
  '{"a":1,"a":2}',
]
const WRONG_TYPES = [
  'text/plain',
  'application/xml',
  'multipart/form-data; boundary=zzz',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/octet-stream',
  'image/png',
  'json',
]

let sixMb: Buffer | undefined
function multipartArb(
  h: Hints,
): fc.Arbitrary<{ payload: Buffer | string; contentType: string; summary: string }> {
  const boundary = 'fuzzboundary'
  const part = (field: string, filename: string, type: string, bytes: Buffer) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
  const ct = `multipart/form-data; boundary=${boundary}`
  void h
  return fc.oneof(
    fc.uint8Array({ maxLength: 300 }).map((b) => ({
      payload: part('image', 'x.png', 'image/png', Buffer.from(b)),
      contentType: ct,
      summary: `garbage image of ${b.length} bytes`,
    })),
    fc.tuple(fc.nat()).map(([n]) => {
      const whole = part('image', 'x.png', 'image/png', picture)
      const cut = whole.subarray(0, n % whole.length)
      return { payload: cut, contentType: ct, summary: `picture cut at ${cut.length}` }
    }),
    fc.constantFrom('image', 'file', '', '\u0000', 'image\u202e').chain((field) =>
      fc.constantFrom('p.png', '', '\u0000.png', '..\\..\\etc\\passwd', 'gpj.\u202eexe').map((name) => ({
        payload: part(field, name, 'image/png', picture),
        contentType: ct,
        summary: `picture as field ${JSON.stringify(field)} named ${JSON.stringify(name)}`,
      })),
    ),
    fc.constantFrom(
      {
        payload: part('image', 'p.png', 'image/png', Buffer.alloc(0)),
        contentType: ct,
        summary: 'empty file',
      },
      { payload: 'not multipart at all', contentType: ct, summary: 'text as multipart' },
      { payload: '', contentType: ct, summary: 'empty multipart' },
      {
        payload: part('image', 'p.png', 'image/png', Buffer.from('x')),
        contentType: 'multipart/form-data',
        summary: 'no boundary',
      },
      {
        payload: part('image', 'p.png', 'image/png', Buffer.from('x')),
        contentType: 'multipart/form-data; boundary=other',
        summary: 'wrong boundary',
      },
      {
        payload: Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n`.repeat(20) +
            `--${boundary}--\r\n`,
        ),
        contentType: ct,
        summary: 'twenty text fields',
      },
      {
        payload: Buffer.concat([
          part('image', 'a.png', 'image/png', Buffer.from('x')).subarray(0, -4),
          part('image', 'b.png', 'image/png', Buffer.from('y')),
        ]),
        contentType: ct,
        summary: 'two files',
      },
    ),
    fc.constant(null).map(() => {
      sixMb ??= Buffer.alloc(6 * MB, 1)
      return { payload: part('image', 'big.png', 'image/png', sixMb), contentType: ct, summary: '6 MB file' }
    }),
  )
}

function bodyArb(route: ApiRoute, entry: FuzzEntry, h: Hints) {
  type Body = { payload?: string | Buffer | object; contentType?: string; summary: string }
  const json = (v: unknown): Body => ({
    payload: JSON.stringify(v) ?? '',
    contentType: 'application/json',
    summary: 'json',
  })
  const options: fc.WeightedArbitrary<Body>[] = [
    { weight: 1, arbitrary: anyJson.map(json) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...MALFORMED_JSON)
        .map((p) => ({ payload: p, contentType: 'application/json', summary: 'malformed json' })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...WRONG_TYPES), anyJson).map(([type, v]) => ({
        payload: JSON.stringify(v) ?? '',
        contentType: type,
        summary: `as ${type}`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.constant(null).map(() => ({
        payload: JSON.stringify({ name: 'x'.repeat(MB), email: 'a@b.co', password: 'x'.repeat(MB) }),
        contentType: 'application/json',
        summary: '1 MB strings',
      })),
    },
  ]
  if (route.schema.body) {
    options.push({ weight: 4, arbitrary: valueArb(route.schema.body, h).map(json) })
    options.push({ weight: 7, arbitrary: oneMutation(plausibleArb(route.schema.body, h)).map(json) })
  } else options.push({ weight: 6, arbitrary: fc.constant({ summary: 'no body' }) })
  if (entry.multipart) options.push({ weight: 8, arbitrary: multipartArb(h) })
  return fc.oneof(...options)
}

function requestArb(route: ApiRoute, entry: FuzzEntry, world: World): fc.Arbitrary<FuzzRequest> {
  const h: Hints = { world }
  const names = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] as string)
  const segments = fc.tuple(...names.map((n) => segmentArb(entry.params?.[n], { ...h, key: n })))
  return fc
    .record({
      who: fc.oneof(
        { weight: 3, arbitrary: fc.constant('admin' as const) },
        { weight: 2, arbitrary: fc.constant('member' as const) },
        {
          weight: 1,
          arbitrary: fc.constantFrom('outsider' as const, 'anonymous' as const, 'badToken' as const),
        },
      ),
      segments,
      query: queryArb(route, h),
      body: bodyArb(route, entry, h),
    })
    .map(({ who, segments, query, body }) => {
      let i = 0
      const path = route.url.replace(/:(\w+)/g, () => segments[i++] ?? '')
      const url = query ? `${path}?${query}` : path
      const summary = `${route.method} ${url.slice(0, 200)} as ${who}, ${body.summary}: ${String(
        typeof body.payload === 'string' ? body.payload : body.payload ? '<buffer>' : '',
      ).slice(0, 300)}`
      const request: FuzzRequest = { who, url, payload: body.payload, contentType: body.contentType, summary }
      return Object.assign(request, { [fc.toStringMethod]: () => summary })
    })
}

function inject(route: ApiRoute, world: World, r: FuzzRequest) {
  const headers: Record<string, string> = {}
  if (r.who === 'admin' || r.who === 'member' || r.who === 'outsider')
    Object.assign(headers, world[r.who].auth)
  if (r.who === 'badToken') headers.authorization = 'Bearer not.a.token'
  if (r.contentType) headers['content-type'] = r.contentType
  const options: InjectOptions = { method: route.method as InjectOptions['method'], url: r.url, headers }
  if (r.payload !== undefined) options.payload = r.payload as InjectOptions['payload']
  return t.app.inject(options)
}

/**
 * The app's error shape: a message, a code of ours, the message's key (issue 23: the key names the
 * message in MESSAGES, or is `invalidInput` for zod's own words); extra fields a route documents.
 */
const ZAppError = z
  .extend(ZErrorResponse, {
    message: z.string().check(z.minLength(1)),
    code: z.optional(z.enum(ERROR_CODES)),
    key: z.enum(Object.keys(MESSAGES) as [MessageKey, ...MessageKey[]]),
    statusCode: z.optional(z.never()),
    error: z.optional(z.never()),
  })
  .check(
    z.refine(
      (body) =>
        body.message === MESSAGES[body.key] || (body.key === 'invalidInput' && !messageKeyOf(body.message)),
    ),
  )

// ---------------------------------------------------------------------------------------------------

describe('fuzzing every API route', () => {
  it('has a fuzz entry for every route the app registers, and no entry without a route', () => {
    const registered = routes.map((r) => r.key)
    const missing = registered.filter((k) => !(k in FUZZ))
    const stale = Object.keys(FUZZ).filter((k) => !registered.includes(k))
    expect({ missing, stale }).toEqual({ missing: [], stale: [] })
  })

  it.each(Object.keys(FUZZ))(
    '%s answers hostile input with a 4xx and a message, never a 5xx',
    async (key) => {
      const route = routes.find((r) => r.key === key)
      if (!route) return // reported by the test above
      const entry = FUZZ[key] as FuzzEntry
      // Each route that may change something gets a world of its own; the read-only ones share one.
      const world = route.method === 'GET' ? (readOnlyWorld ??= await seedWorld()) : await seedWorld()
      await fc.assert(
        fc.asyncProperty(requestArb(route, entry, world), async (request) => {
          const res = await inject(route, world, request)
          if (res.statusCode >= 500) throw new Error(`${res.statusCode}: ${res.body.slice(0, 300)}`)
          if (res.statusCode >= 400) {
            let body: unknown
            try {
              body = res.json()
            } catch {
              throw new Error(`${res.statusCode} without a JSON body: ${res.body.slice(0, 200)}`)
            }
            if (!ZAppError.safeParse(body).success)
              throw new Error(`${res.statusCode} not in the error shape: ${res.body.slice(0, 300)}`)
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      )
      const health = await t.app.inject({ method: 'GET', url: '/api/health' })
      expect(health.statusCode).toBe(200)
    },
  )
})

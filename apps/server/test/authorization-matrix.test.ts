import { randomBytes, randomUUID } from 'node:crypto'
import { MESSAGES } from '@circles/shared'
import type { InjectOptions } from 'fastify'
import { unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSessionTokens } from '../src/modules/auth/session-token'
import { createUnsubscribeTokens } from '../src/lib/unsubscribe-tokens'
import { softwarePasskey } from './support/authenticator'
import { addMember, createCircle, qrInvitation, type SignedIn, signedIn } from './support/circles'
import { createUser, DEFAULT_PASSWORD, uniqueEmail } from './support/factories'
import { createItem, handOver, pendingHandover } from './support/handovers'
import { multipart, pictureBytes } from './support/images'
import { deviceKeys } from './support/push-endpoint'
import { currentCheckpoint, witnessDevice, witnessKeyPair } from './support/witness'
import { type ApiRoute, createTestAppWithRoutes, routeKey } from './support/routes'
import { connectAs, type Listener, listen, refusedConnection, tokenOf } from './support/sockets'
import { TEST_JWT_SECRET, type TestApp, tokenFromEmail } from './support/test-app'

/**
 * Issue 22: every route under /api, called as each of seven callers, against a table of who may do
 * what. Allowed is any 2xx; a refusal is the exact status the rules give (401 without a session, 404
 * for a foreign resource, 403 for a member without the right, 409 where the state forbids it). Every
 * answer, allowed or not, is searched for what that caller must never see.
 */

const ROLES = ['anonymous', 'unverified', 'outsider', 'member', 'holder', 'receiver', 'admin'] as const
type Role = (typeof ROLES)[number]
const OK = 'ok'
type Outcome = typeof OK | 302 | 400 | 401 | 403 | 404 | 409
type Expectation = Record<Role, Outcome>

/** The same answer whoever calls: public routes. */
const anyone = (outcome: Outcome = OK): Expectation =>
  Object.fromEntries(ROLES.map((role) => [role, outcome])) as Expectation
/** Any signed-in, verified account; an unverified account has no session (docs/decisions/0005). */
const anyAccount = (outcome: Outcome = OK): Expectation => ({
  ...anyone(outcome),
  anonymous: 401,
  unverified: 401,
})
/** Circle A's resources: its members as given, the outsider the 404 of a foreign resource. */
const circleA = (members: Outcome, only: Partial<Expectation> = {}): Expectation => ({
  ...anyAccount(members),
  outsider: 404,
  ...only,
})
const adminOnly = circleA(403, { admin: OK })

const PUSH_ENDPOINT = 'http://127.0.0.1:9/push/matrix'
const pushDevice = deviceKeys()

/** What a caller must never find in an answer, in groups. */
type Group = 'circleA' | 'circleB' | 'secret' | 'invitation'
const HIDDEN: Record<Role, Group[]> = {
  anonymous: ['circleA', 'circleB', 'secret', 'invitation'],
  unverified: ['circleA', 'circleB', 'secret', 'invitation'],
  outsider: ['circleA', 'secret', 'invitation'],
  member: ['circleB', 'secret', 'invitation'],
  holder: ['circleB', 'secret', 'invitation'],
  receiver: ['circleB', 'invitation'],
  admin: ['circleB', 'secret'],
}

interface Call {
  url: string
  payload?: InjectOptions['payload']
  headers?: Record<string, string>
}
interface Row {
  expect: Expectation
  /** The request for one caller; may first build a fresh target, so an allowed change spoils nothing. */
  call(role: Role, as: SignedIn | undefined): Call | Promise<Call>
  /**
   * What this route shows to anyone holding its capability (an invitation's link shows its circle),
   * or to this caller (one's data export shows the secret one wrote).
   */
  shows?: (role: Role) => string[]
  /** The answer's bytes to search, when they are packed (a ZIP file: every file in it, unpacked). */
  read?: (body: Buffer) => Buffer
}

let t: TestApp
/** Every /api route, as the app registered it. */
let routes: ApiRoute[]
let url: string
let outsiderSocket: Listener

/** One world: circle A (admin, holder, receiver, member), circle B (the outsider's own). */
interface World {
  who: Record<Exclude<Role, 'anonymous'>, SignedIn>
  host: SignedIn
  circleA: { id: string; name: string }
  circleB: { id: string; name: string }
  /** The holder's item, pictured, with a pending handover to the receiver. */
  item: { id: string; name: string; code: string; imageUrl: string; picture: Buffer }
  /** The admin's item, confirmed to the holder: a block in A's ledger. */
  handedItem: { id: string; name: string }
  block: { id: string; hash: string }
  handoverId: string
  secret: string
  invitation: { email: string; token: string; id: string }
  preview: { token: string }
  itemB: { id: string; name: string; imageUrl: string; picture: Buffer }
  sentinels: Record<Group, (string | Buffer)[]>
}
let w: World

const tag = () => randomBytes(5).toString('hex')

/** A picture for an item; each call's of its own size, so no two pictures share their bytes. */
async function upload(who: SignedIn, itemId: string, width: number) {
  const form = multipart('image', {
    name: 'p.png',
    type: 'image/png',
    bytes: await pictureBytes('png', width, 240),
  })
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/items/${itemId}/image`,
    headers: { ...who.auth, ...form.headers },
    payload: form.payload,
  })
  if (res.statusCode !== 200) throw new Error(`upload: ${res.statusCode} ${res.body}`)
  const imageUrl = res.json().imageUrl as string
  const picture = (await t.app.inject({ method: 'GET', url: imageUrl, headers: who.auth })).rawPayload
  return { imageUrl, picture }
}

/** An avatar for a person; its URL. */
async function uploadAvatar(who: SignedIn, width: number): Promise<string> {
  const form = multipart('image', {
    name: 'me.png',
    type: 'image/png',
    bytes: await pictureBytes('png', width, 64),
  })
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/users/me/avatar',
    headers: { ...who.auth, ...form.headers },
    payload: form.payload,
  })
  if (res.statusCode !== 200) throw new Error(`avatar: ${res.statusCode} ${res.body}`)
  return res.json().user.avatarUrl as string
}

async function buildWorld(): Promise<World> {
  const unverifiedUser = await createUser(t.database, { name: 'Una Unverified', verified: false })
  const unverifiedToken = createSessionTokens(TEST_JWT_SECRET).issue({
    userId: unverifiedUser.id,
    sv: unverifiedUser.sessionVersion,
  })
  const who = {
    unverified: { user: unverifiedUser, auth: { authorization: `Bearer ${unverifiedToken}` } },
    outsider: await signedIn(t, { name: 'Olga Outsider', email: uniqueEmail('olga') }),
    member: await signedIn(t, { name: 'Mia Member', email: uniqueEmail('mia') }),
    holder: await signedIn(t, { name: 'Hugo Holder', email: uniqueEmail('hugo') }),
    receiver: await signedIn(t, { name: 'Rita Receiver', email: uniqueEmail('rita') }),
    admin: await signedIn(t, { name: 'Ada Admin', email: uniqueEmail('ada') }),
  }
  const host = await signedIn(t, { name: 'Hal Host' })

  const circleA = await createCircle(t, who.admin, {
    name: `Alpha ${tag()}`,
    description: `Alpha desc ${tag()}`,
  })
  for (const role of ['holder', 'receiver', 'member'] as const)
    await addMember(t, who.admin, circleA.id, who[role])
  const item = await createItem(t, who.holder, circleA.id, `Xylophone ${tag()}`)
  const itemPicture = await upload(who.holder, item.id, 320)
  const holderAvatarUrl = await uploadAvatar(who.holder, 96)
  const handedItem = await createItem(t, who.admin, circleA.id, `Zither ${tag()}`)
  const confirmed = await handOver(t, who.admin, who.holder, handedItem.id, {
    requesterComment: `Comment ${tag()}`,
  })
  const secret = `secret-${tag()}`
  const pending = await pendingHandover(t, who.holder, who.receiver, item.id, {
    secretMessage: secret,
    requesterComment: 'Handle with care',
  })
  const inviteeEmail = uniqueEmail('invitee')
  const invited = await t.app.inject({
    method: 'POST',
    url: `/api/circles/${circleA.id}/users`,
    headers: who.admin.auth,
    payload: { email: inviteeEmail },
  })
  if (invited.statusCode !== 201) throw new Error(`invite: ${invited.body}`)
  const [mail] = await t.emailsTo(inviteeEmail)
  const invitation = {
    email: inviteeEmail,
    token: tokenFromEmail(mail!.textBody, '/join'),
    id: invited.json().invitation.id,
  }
  const preview = await qrInvitation(t, who.admin, circleA.id, uniqueEmail('preview'))

  const circleB = await createCircle(t, who.outsider, { name: `Beta ${tag()}` })
  const itemB = await createItem(t, who.outsider, circleB.id, `Bassoon ${tag()}`)
  const itemBPicture = await upload(who.outsider, itemB.id, 290)

  const block = { id: confirmed.block!.id, hash: confirmed.block!.hash }
  const fileName = (u: string) => u.split('/').at(-1)!.split('.')[0]!
  /** A stretch from the middle of the picture's bytes: found in a body only if the picture is in it. */
  const bytesOf = (picture: Buffer) => picture.subarray(picture.length / 2 - 32, picture.length / 2 + 32)
  return {
    who,
    host,
    circleA,
    circleB,
    item: { id: item.id, name: item.name, code: item.code, ...itemPicture },
    handedItem: { id: handedItem.id, name: handedItem.name },
    block,
    handoverId: pending.id,
    secret,
    invitation,
    preview: { token: preview.token },
    itemB: { id: itemB.id, name: itemB.name, ...itemBPicture },
    sentinels: {
      circleA: [
        circleA.name,
        circleA.description!,
        item.name,
        handedItem.name,
        fileName(itemPicture.imageUrl),
        bytesOf(itemPicture.picture),
        fileName(holderAvatarUrl),
        block.id,
        block.hash,
        ...(['member', 'holder', 'receiver', 'admin'] as const).map((r) => who[r].user.email),
      ],
      circleB: [
        circleB.name,
        itemB.name,
        fileName(itemBPicture.imageUrl),
        bytesOf(itemBPicture.picture),
        who.outsider.user.email,
      ],
      secret: [secret],
      invitation: [inviteeEmail, invitation.token],
    },
  }
}

// Fresh targets for the routes that change something: each call gets its own, so an allowed change
// (or a wrongly allowed one) leaves the shared world as it was for the rows after it.
const freshItem = () => createItem(t, w.who.holder, w.circleA.id, 'Spare part')
/** A fresh item of the holder's that the member asked to borrow: the ask's id. */
const freshAsk = async () => {
  const item = await freshItem()
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/items/${item.id}/borrow-requests`,
    headers: w.who.member.auth,
    payload: { wishedUntil: new Date(Date.now() + 7 * 86_400_000).toISOString(), message: 'Please' },
  })
  if (res.statusCode !== 201) throw new Error(`ask: ${res.statusCode} ${res.body}`)
  return res.json().borrowRequest.id as string
}
const freshPending = async () =>
  pendingHandover(t, w.who.holder, w.who.receiver, (await freshItem()).id, { secretMessage: w.secret })
/** Issue 26: the holder lends a fresh item to the receiver, who accepts: an ACTIVE loan. */
const inAWeek = () => new Date(Date.now() + 7 * 24 * 3600_000).toISOString()
async function freshLoan(): Promise<{ id: string }> {
  const request = await pendingHandover(t, w.who.holder, w.who.receiver, (await freshItem()).id, {
    kind: 'LOAN',
    dueAt: inAWeek(),
  })
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/handovers/${request.id}/status`,
    headers: w.who.receiver.auth,
    payload: { status: 'CONFIRMED' },
  })
  if (res.statusCode !== 200) throw new Error(`loan: ${res.body}`)
  return { id: res.json().handover.loanId }
}
/** A fresh loan with the receiver's pending wish for a later date. */
async function freshExtension() {
  const loan = await freshLoan()
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/loans/${loan.id}/extensions`,
    headers: w.who.receiver.auth,
    payload: { dueAt: new Date(Date.now() + 14 * 24 * 3600_000).toISOString() },
  })
  if (res.statusCode !== 201) throw new Error(`extension: ${res.body}`)
  return `/api/loans/${loan.id}/extensions/${res.json().extension.id}`
}
let sharedLoan: Promise<{ id: string }> | undefined
const freshInvitation = () => qrInvitation(t, w.who.admin, w.circleA.id, uniqueEmail('qr'))
async function freshMember() {
  const extra = await signedIn(t, { name: 'Extra Member' })
  await addMember(t, w.who.admin, w.circleA.id, extra)
  return extra
}
/** A circle with the same admin, holder, receiver and member as A, for leaving and transferring. */
async function miniCircle() {
  const circle = await createCircle(t, w.who.admin, { name: 'Mini circle' })
  for (const role of ['holder', 'receiver', 'member'] as const)
    await addMember(t, w.who.admin, circle.id, w.who[role])
  return circle
}
/** An invitation to a stranger's circle: anyone signed in who holds its token may accept it. */
async function hostedInvitation() {
  const circle = await createCircle(t, w.host, { name: 'Open house' })
  return qrInvitation(t, w.host, circle.id, uniqueEmail('open'))
}
async function outboxToken(email: string, pathname: string) {
  const [mail] = await t.emailsTo(email)
  return tokenFromEmail(mail!.textBody, pathname)
}
async function registerPasskey(who: SignedIn) {
  const passkey = softwarePasskey()
  const options = (
    await t.app.inject({ method: 'GET', url: '/api/webauthn/register/options', headers: who.auth })
  ).json()
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/webauthn/register/verify',
    headers: who.auth,
    payload: { credential: passkey.register(options) },
  })
  if (res.statusCode !== 200) throw new Error(`passkey: ${res.body}`)
  return passkey
}

/** Who may do what, by route: 'METHOD /api/path' as the app declares it. */
function table(): Record<string, Row> {
  const A = () => w.circleA.id
  /** The holder's avatar as it is now: one is uploaded when an earlier row removed it. */
  const holderAvatar = async (): Promise<string> => {
    const me = await t.app.inject({ method: 'GET', url: '/api/users/me', headers: w.who.holder.auth })
    const current = me.json().user.avatarUrl as string | null
    return current ?? (await uploadAvatar(w.who.holder, 72))
  }
  /** The holder's calendar feed URL as it is now (a row may have turned it off or renewed it). */
  const holderCalendar = async (): Promise<string> => {
    const shown = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/calendar',
      headers: w.who.holder.auth,
    })
    const current = shown.json().url as string | null
    if (current) return current
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/calendar',
      headers: w.who.holder.auth,
    })
    return made.json().url as string
  }
  const uploadBody = async (itemId: string) => {
    const form = multipart('image', {
      name: 'p.png',
      type: 'image/png',
      bytes: await pictureBytes('png', 64, 48),
    })
    return { url: `/api/items/${itemId}/image`, payload: form.payload, headers: form.headers }
  }
  /** Issue 28: a condition photo the holder uploaded (attached to a request in circle A when asked). */
  const photoUpload = async (who: SignedIn) => {
    const form = multipart('image', {
      name: 'c.png',
      type: 'image/png',
      bytes: await pictureBytes('png', 64, 48),
    })
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/handovers/photos',
      headers: { ...who.auth, ...form.headers },
      payload: form.payload,
    })
    if (res.statusCode !== 201) throw new Error(`upload photo: ${res.statusCode} ${res.body}`)
    return res.json().photo as { id: string; url: string }
  }
  let attachedPhoto: Promise<string> | undefined
  const attachedPhotoUrl = () =>
    (attachedPhoto ??= (async () => {
      const photo = await photoUpload(w.who.holder)
      await pendingHandover(t, w.who.holder, w.who.receiver, (await freshItem()).id, {
        condition: { photoIds: [photo.id], note: 'Scratch on the left' },
      })
      return photo.url
    })())
  return {
    // Liveness, readiness and the API's documentation are public.
    'GET /api/health': { expect: anyone(), call: () => ({ url: '/api/health' }) },
    'GET /api/ready': { expect: anyone(), call: () => ({ url: '/api/ready' }) },
    'GET /api/docs': { expect: anyone(), call: () => ({ url: '/api/docs' }) },
    'GET /api/docs/static/index.html': {
      expect: anyone(302),
      call: () => ({ url: '/api/docs/static/index.html' }),
    },
    'GET /api/docs/static/swagger-initializer.js': {
      expect: anyone(),
      call: () => ({ url: '/api/docs/static/swagger-initializer.js' }),
    },
    'GET /api/docs/static/*': { expect: anyone(), call: () => ({ url: '/api/docs/static/swagger-ui.css' }) },
    'GET /api/docs/json': { expect: anyone(), call: () => ({ url: '/api/docs/json' }) },
    'GET /api/docs/yaml': { expect: anyone(), call: () => ({ url: '/api/docs/yaml' }) },
    'POST /api/contact': {
      expect: anyone(),
      call: () => ({
        url: '/api/contact',
        payload: { name: 'Cora', email: uniqueEmail('cora'), subject: 'Hello', message: 'A question' },
      }),
    },

    // Accounts: the public forms answer the same whoever asks; the session routes need a verified one.
    'POST /api/users/register': {
      expect: anyone(),
      call: () => ({
        url: '/api/users/register',
        payload: { name: 'New Person', email: uniqueEmail('new'), password: DEFAULT_PASSWORD },
      }),
    },
    'POST /api/users/login': {
      expect: anyone(),
      call: async () => {
        const user = await createUser(t.database, { name: 'Lou Login' })
        return { url: '/api/users/login', payload: { email: user.email, password: user.password } }
      },
    },
    'GET /api/users/verify/:token': {
      expect: anyone(),
      call: async () => {
        const email = uniqueEmail('verify')
        await t.app.inject({
          method: 'POST',
          url: '/api/users/register',
          payload: { name: 'Vera Verify', email, password: DEFAULT_PASSWORD },
        })
        return { url: `/api/users/verify/${await outboxToken(email, '/verify')}` }
      },
    },
    'POST /api/users/resend-verification': {
      expect: anyone(),
      call: () => ({
        url: '/api/users/resend-verification',
        payload: { email: w.who.unverified.user.email },
      }),
    },
    'POST /api/users/request-password-reset': {
      expect: anyone(),
      call: () => ({ url: '/api/users/request-password-reset', payload: { email: uniqueEmail('nobody') } }),
    },
    'GET /api/users/verify-reset-token/:token': {
      expect: anyone(),
      call: async () => {
        const user = await createUser(t.database, { name: 'Rex Reset' })
        await t.app.inject({
          method: 'POST',
          url: '/api/users/request-password-reset',
          payload: { email: user.email },
        })
        return { url: `/api/users/verify-reset-token/${await outboxToken(user.email, '/reset-password')}` }
      },
    },
    'POST /api/users/reset-password': {
      expect: anyone(),
      call: async () => {
        const user = await createUser(t.database, { name: 'Rex Reset' })
        await t.app.inject({
          method: 'POST',
          url: '/api/users/request-password-reset',
          payload: { email: user.email },
        })
        const token = await outboxToken(user.email, '/reset-password')
        const password = 'a brand new passphrase'
        return {
          url: '/api/users/reset-password',
          payload: { token, newPassword: password, confirmPassword: password },
        }
      },
    },
    'POST /api/users/unsubscribe': {
      expect: anyone(),
      call: () => ({
        url: '/api/users/unsubscribe',
        payload: { token: createUnsubscribeTokens(TEST_JWT_SECRET).issue(w.host.user.id, 'invitations') },
      }),
    },
    // Only one's own status: the member's, asked by everyone.
    'GET /api/users/status/:id': {
      expect: { ...anyAccount(403), member: OK },
      call: () => ({ url: `/api/users/status/${w.who.member.user.id}` }),
    },
    'GET /api/users/me': { expect: anyAccount(), call: () => ({ url: '/api/users/me' }) },
    // The avatar (docs/decisions/0037): one's own is changed; the holder's is seen by circle A only.
    'PUT /api/users/me/avatar': {
      expect: anyAccount(),
      call: async () => {
        const form = multipart('image', {
          name: 'me.png',
          type: 'image/png',
          bytes: await pictureBytes('png', 64, 64),
        })
        return { url: '/api/users/me/avatar', payload: form.payload, headers: form.headers }
      },
    },
    'DELETE /api/users/me/avatar': { expect: anyAccount(), call: () => ({ url: '/api/users/me/avatar' }) },
    'GET /api/users/avatars/:file': {
      expect: circleA(OK),
      call: async () => ({ url: await holderAvatar() }),
    },
    'PUT /api/users/me': {
      expect: anyAccount(),
      call: (_role, as) => ({ url: '/api/users/me', payload: { name: as?.user.name ?? 'Anyone' } }),
    },
    'GET /api/users/me/notifications': {
      expect: anyAccount(),
      call: () => ({ url: '/api/users/me/notifications' }),
    },
    // One's own data, unpacked and searched: the holder wrote the pending handover's secret.
    'GET /api/users/me/export': {
      expect: anyAccount(),
      call: () => ({ url: '/api/users/me/export' }),
      shows: (role) => (role === 'holder' ? [w.secret] : []),
      read: (zip) =>
        Buffer.concat(Object.values(unzipSync(new Uint8Array(zip))).map((file) => Buffer.from(file))),
    },
    'PUT /api/users/me/notifications': {
      expect: anyAccount(),
      call: () => ({
        url: '/api/users/me/notifications',
        payload: { handoverRequests: true, handoverAnswers: true, invitations: true },
      }),
    },
    // Issue 26 (h-reminders): one's own time zone and calendar feed; the feed itself by its secret URL.
    'GET /api/users/me/time-zone': { expect: anyAccount(), call: () => ({ url: '/api/users/me/time-zone' }) },
    'PUT /api/users/me/time-zone': {
      expect: anyAccount(),
      call: () => ({ url: '/api/users/me/time-zone', payload: { timeZone: 'Europe/Berlin' } }),
    },
    'GET /api/users/me/calendar': { expect: anyAccount(), call: () => ({ url: '/api/users/me/calendar' }) },
    'POST /api/users/me/calendar': { expect: anyAccount(), call: () => ({ url: '/api/users/me/calendar' }) },
    'DELETE /api/users/me/calendar': {
      expect: anyAccount(),
      call: () => ({ url: '/api/users/me/calendar' }),
    },
    'GET /api/calendar/:token': {
      expect: anyone(),
      call: async () => ({ url: new URL(await holderCalendar()).pathname }),
    },
    // Issue 27 (h-push): the public VAPID key; one's own device on, its state, off. The endpoint is a
    // closed loopback port: a notice queued for it fails and is retried, never reaching anyone.
    'GET /api/push/key': { expect: anyone(), call: () => ({ url: '/api/push/key' }) },
    'POST /api/push/subscriptions': {
      expect: anyAccount(),
      call: () => ({
        url: '/api/push/subscriptions',
        payload: { endpoint: PUSH_ENDPOINT, keys: { p256dh: pushDevice.p256dh, auth: pushDevice.auth } },
      }),
    },
    'POST /api/push/subscriptions/status': {
      expect: anyAccount(),
      call: () => ({ url: '/api/push/subscriptions/status', payload: { endpoint: PUSH_ENDPOINT } }),
    },
    'DELETE /api/push/subscriptions': {
      expect: anyAccount(),
      call: () => ({ url: '/api/push/subscriptions', payload: { endpoint: PUSH_ENDPOINT } }),
    },
    // One's own password only (no id to aim elsewhere). An allowed change ends the caller's other
    // sessions, the world's tokens among them: each verified caller sends a fresh account's session.
    'PUT /api/users/me/password': {
      expect: anyAccount(),
      call: async (role) => {
        const standIn = role === 'anonymous' || role === 'unverified' ? undefined : await signedIn(t)
        return {
          url: '/api/users/me/password',
          headers: standIn?.auth,
          payload: {
            currentPassword: DEFAULT_PASSWORD,
            newPassword: 'a changed password',
            confirmPassword: 'a changed password',
          },
        }
      },
    },

    // Deleting one's own account (issue 24): the preview is one's own; a wrong password is refused (403)
    // to every account, so the row deletes nobody; without a session, 401.
    'GET /api/users/me/deletion': { expect: anyAccount(), call: () => ({ url: '/api/users/me/deletion' }) },
    'POST /api/users/me/delete': {
      expect: anyAccount(403),
      call: () => ({ url: '/api/users/me/delete', payload: { password: 'not the password' } }),
    },
    // Re-authentication with one's own passkey.
    'POST /api/webauthn/reauth/options': {
      expect: anyAccount(),
      call: async (role, as) => {
        if (as && role !== 'unverified') await registerPasskey(as)
        return { url: '/api/webauthn/reauth/options' }
      },
    },

    // Passkeys: one's own; signing in with one is public.
    'GET /api/webauthn/register/options': {
      expect: anyAccount(),
      call: () => ({ url: '/api/webauthn/register/options' }),
    },
    'POST /api/webauthn/register/verify': {
      expect: anyAccount(),
      call: async (_role, as) => {
        const options = as
          ? (
              await t.app.inject({ method: 'GET', url: '/api/webauthn/register/options', headers: as.auth })
            ).json()
          : { challenge: 'bm8tY2hhbGxlbmdl' }
        return {
          url: '/api/webauthn/register/verify',
          payload: {
            credential: softwarePasskey().register({ challenge: options.challenge ?? 'bm8tY2hhbGxlbmdl' }),
          },
        }
      },
    },
    'POST /api/webauthn/login/options': {
      expect: anyone(),
      call: () => ({ url: '/api/webauthn/login/options', payload: {} }),
    },
    'POST /api/webauthn/login/verify': {
      expect: anyone(),
      call: async () => {
        const passkey = await registerPasskey(w.host)
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/webauthn/login/options',
          payload: { email: w.host.user.email },
        })
        const { options, userId } = res.json()
        return { url: '/api/webauthn/login/verify', payload: { credential: passkey.assert(options), userId } }
      },
    },
    'GET /api/webauthn/credentials': {
      expect: anyAccount(),
      call: () => ({ url: '/api/webauthn/credentials' }),
    },
    // The member's passkey: theirs to delete, nobody else's (404: as if there were none).
    'DELETE /api/webauthn/credentials/:id': {
      expect: { ...anyAccount(404), member: OK },
      call: async () => ({ url: `/api/webauthn/credentials/${(await registerPasskey(w.who.member)).id}` }),
    },
    // Issue 24: renaming follows deleting: the member's own passkey, a 404 for everyone else.
    'PATCH /api/webauthn/credentials/:id': {
      expect: { ...anyAccount(404), member: OK },
      call: async () => ({
        url: `/api/webauthn/credentials/${(await registerPasskey(w.who.member)).id}`,
        payload: { name: 'Renamed' },
      }),
    },

    // The dashboard: each caller's own.
    'GET /api/activities/recent': { expect: anyAccount(), call: () => ({ url: '/api/activities/recent' }) },
    'GET /api/dashboard/stats': { expect: anyAccount(), call: () => ({ url: '/api/dashboard/stats' }) },

    // Circles.
    'GET /api/circles': { expect: anyAccount(), call: () => ({ url: '/api/circles' }) },
    'POST /api/circles': {
      expect: anyAccount(),
      call: () => ({ url: '/api/circles', payload: { name: 'Another circle' } }),
    },
    'GET /api/circles/:id': { expect: circleA(OK), call: () => ({ url: `/api/circles/${A()}` }) },
    'PUT /api/circles/:id': {
      expect: adminOnly,
      call: () => ({ url: `/api/circles/${A()}`, payload: { name: w.circleA.name, description: 'Edited' } }),
    },
    'POST /api/circles/:id/users': {
      expect: adminOnly,
      call: () => ({ url: `/api/circles/${A()}/users`, payload: { email: uniqueEmail('invite') } }),
    },
    'DELETE /api/circles/:id/users/:userId': {
      expect: adminOnly,
      call: async () => ({ url: `/api/circles/${A()}/users/${(await freshMember()).user.id}` }),
    },
    'POST /api/circles/:id/transfer': {
      expect: adminOnly,
      call: async () => ({
        url: `/api/circles/${(await miniCircle()).id}/transfer`,
        payload: { userId: w.who.member.user.id },
      }),
    },
    // Every member may leave; the admin must hand the circle on first (409).
    'POST /api/circles/:id/leave': {
      expect: circleA(OK, { admin: 409 }),
      call: async () => ({ url: `/api/circles/${(await miniCircle()).id}/leave` }),
    },
    'POST /api/circles/:id/invitations/qr': {
      expect: adminOnly,
      call: () => ({ url: `/api/circles/${A()}/invitations/qr`, payload: { email: uniqueEmail('qr') } }),
    },
    'GET /api/circles/:id/invitations': {
      expect: adminOnly,
      call: () => ({ url: `/api/circles/${A()}/invitations` }),
    },
    'POST /api/circles/:id/invitations/:invId/resend': {
      expect: adminOnly,
      call: async () => ({ url: `/api/circles/${A()}/invitations/${(await freshInvitation()).id}/resend` }),
    },
    'DELETE /api/circles/:id/invitations/:invId': {
      expect: adminOnly,
      call: async () => ({ url: `/api/circles/${A()}/invitations/${(await freshInvitation()).id}` }),
    },
    // The token is the credential: its holder sees the invitation (and its circle's name).
    'GET /api/circles/invitations/:token/verify': {
      expect: anyone(),
      call: () => ({ url: `/api/circles/invitations/${w.preview.token}/verify` }),
      shows: () => [w.circleA.name],
    },
    'POST /api/circles/invitations/:token': {
      expect: anyAccount(),
      call: async () => ({ url: `/api/circles/invitations/${(await hostedInvitation()).token}` }),
    },

    // Items.
    'GET /api/items': { expect: anyAccount(), call: () => ({ url: '/api/items' }) },
    'GET /api/items/my-items': { expect: anyAccount(), call: () => ({ url: '/api/items/my-items' }) },
    'POST /api/items': {
      expect: circleA(OK),
      call: () => ({ url: '/api/items', payload: { name: 'Brand new thing', circleId: A() } }),
    },
    'GET /api/items/circle/:id': { expect: circleA(OK), call: () => ({ url: `/api/items/circle/${A()}` }) },
    'GET /api/items/image/:file': { expect: circleA(OK), call: () => ({ url: w.item.imageUrl }) },
    'GET /api/items/:id': { expect: circleA(OK), call: () => ({ url: `/api/items/${w.item.id}` }) },
    // Issue 27: a label's code resolves for the circle's members only (others: the same 404).
    'GET /api/items/by-code/:code': {
      expect: circleA(OK),
      call: () => ({ url: `/api/items/by-code/${w.item.code}` }),
    },
    'GET /api/items/:id/ownership-status': {
      expect: circleA(OK),
      call: () => ({ url: `/api/items/${w.item.id}/ownership-status` }),
    },
    // The holder and the circle's admin edit; deleting needs complete ownership (the holder's).
    'PUT /api/items/:id': {
      expect: circleA(403, { holder: OK, admin: OK }),
      call: async () => ({ url: `/api/items/${(await freshItem()).id}`, payload: { name: 'Renamed part' } }),
    },
    'DELETE /api/items/:id': {
      expect: circleA(403, { holder: OK }),
      call: async () => ({ url: `/api/items/${(await freshItem()).id}` }),
    },
    'POST /api/items/:itemId/image': {
      expect: circleA(403, { holder: OK, admin: OK }),
      call: async () => uploadBody((await freshItem()).id),
    },

    // Handovers: the holder asks, the receiver answers, the sender cancels; members may look.
    'GET /api/handovers': { expect: anyAccount(), call: () => ({ url: '/api/handovers' }) },
    'GET /api/handovers/item/:id': {
      expect: circleA(OK),
      call: () => ({ url: `/api/handovers/item/${w.item.id}` }),
    },
    'POST /api/handovers': {
      expect: circleA(403, { holder: OK }),
      call: async () => ({
        url: '/api/handovers',
        payload: {
          itemId: (await freshItem()).id,
          receiverId: w.who.receiver.user.id,
          secretMessage: w.secret,
        },
      }),
    },
    'PUT /api/handovers/:id/status': {
      expect: circleA(403, { receiver: OK }),
      call: async () => ({
        url: `/api/handovers/${(await freshPending()).id}/status`,
        payload: { status: 'REJECTED' },
      }),
    },
    'DELETE /api/handovers/:id': {
      expect: circleA(403, { holder: OK }),
      call: async () => ({ url: `/api/handovers/${(await freshPending()).id}` }),
    },
    // Issue 28: anyone with an account uploads a condition photo; until it is attached only its uploader
    // sees or removes it; attached, the handover's parties and its circle's members see it.
    'POST /api/handovers/photos': {
      expect: anyAccount(),
      call: async () => {
        const form = multipart('image', {
          name: 'c.png',
          type: 'image/png',
          bytes: await pictureBytes('png', 64, 48),
        })
        return { url: '/api/handovers/photos', payload: form.payload, headers: form.headers }
      },
    },
    'DELETE /api/handovers/photos/:id': {
      expect: { ...anyAccount(404), holder: OK },
      call: async () => ({ url: `/api/handovers/photos/${(await photoUpload(w.who.holder)).id}` }),
    },
    'GET /api/handovers/photos/:file': {
      expect: circleA(OK),
      call: async () => ({ url: await attachedPhotoUrl() }),
    },

    // Asks to borrow (issue 26): members ask for others' items, the owner answers, the asker withdraws.
    'POST /api/items/:id/borrow-requests': {
      expect: circleA(OK, { holder: 403 }),
      call: async () => ({
        url: `/api/items/${(await freshItem()).id}/borrow-requests`,
        payload: { wishedUntil: new Date(Date.now() + 7 * 86_400_000).toISOString() },
      }),
    },
    'GET /api/items/:id/borrow-requests': {
      expect: circleA(OK),
      call: () => ({ url: `/api/items/${w.item.id}/borrow-requests` }),
    },
    'GET /api/borrow-requests': { expect: anyAccount(), call: () => ({ url: '/api/borrow-requests' }) },
    'PUT /api/borrow-requests/:id': {
      expect: circleA(403, { holder: OK }),
      call: async () => ({
        url: `/api/borrow-requests/${await freshAsk()}`,
        payload: { status: 'DECLINED' },
      }),
    },
    'DELETE /api/borrow-requests/:id': {
      expect: circleA(403, { member: OK }),
      call: async () => ({ url: `/api/borrow-requests/${await freshAsk()}` }),
    },
    // Loans (issue 26): the holder lends, the receiver borrows; members see; outsiders get the 404.
    'GET /api/loans': { expect: anyAccount(), call: () => ({ url: '/api/loans?role=lent&status=all' }) },
    'GET /api/loans/:id': {
      expect: circleA(OK),
      call: async () => ({ url: `/api/loans/${(await (sharedLoan ??= freshLoan())).id}` }),
    },
    'PATCH /api/loans/:id': {
      expect: circleA(403, { holder: OK }),
      call: async () => ({ url: `/api/loans/${(await freshLoan()).id}`, payload: { dueAt: inAWeek() } }),
    },
    'POST /api/loans/:id/return': {
      expect: circleA(403, { holder: OK, receiver: OK }),
      call: async () => ({ url: `/api/loans/${(await freshLoan()).id}/return`, payload: {} }),
    },
    'POST /api/loans/:id/extensions': {
      expect: circleA(403, { receiver: OK }),
      call: async () => ({
        url: `/api/loans/${(await freshLoan()).id}/extensions`,
        payload: { dueAt: new Date(Date.now() + 10 * 24 * 3600_000).toISOString() },
      }),
    },
    'PUT /api/loans/:id/extensions/:extensionId': {
      expect: circleA(403, { holder: OK }),
      call: async () => ({ url: await freshExtension(), payload: { status: 'DECLINED' } }),
    },
    'DELETE /api/loans/:id/extensions/:extensionId': {
      expect: circleA(403, { receiver: OK }),
      call: async () => ({ url: await freshExtension() }),
    },

    // The ledger: members of the circle read it; anyone else gets the 404 of a foreign resource.
    'GET /api/blockchain': { expect: anyAccount(), call: () => ({ url: '/api/blockchain' }) },
    'GET /api/blockchain/:id': {
      expect: circleA(OK),
      call: () => ({ url: `/api/blockchain/${w.block.id}` }),
    },
    'GET /api/blockchain/item/:itemId': {
      expect: circleA(OK),
      call: () => ({ url: `/api/blockchain/item/${w.handedItem.id}` }),
    },
    'GET /api/blockchain/circle/:circleId': {
      expect: circleA(OK),
      call: () => ({ url: `/api/blockchain/circle/${A()}` }),
    },
    'GET /api/blockchain/verify/:circleId': {
      expect: circleA(OK),
      call: () => ({ url: `/api/blockchain/verify/${A()}` }),
    },
    'GET /api/ledger/keys': { expect: anyone(), call: () => ({ url: '/api/ledger/keys' }) },
    'GET /api/ledger/:circleId/checkpoint': {
      expect: circleA(OK),
      call: () => ({ url: `/api/ledger/${A()}/checkpoint` }),
    },
    'GET /api/ledger/:circleId/proof/inclusion': {
      expect: circleA(OK),
      call: () => ({ url: `/api/ledger/${A()}/proof/inclusion?index=0&size=1` }),
    },
    'GET /api/ledger/:circleId/proof/inclusions': {
      expect: circleA(OK),
      call: () => ({ url: `/api/ledger/${A()}/proof/inclusions?indexes=0&size=1` }),
    },
    'GET /api/ledger/:circleId/proof/consistency': {
      expect: circleA(OK),
      call: () => ({ url: `/api/ledger/${A()}/proof/consistency?from=1&to=1` }),
    },
    // Issue 29: the tree's tiles, for members (the tile of a tree of one block or more).
    'GET /api/ledger/:circleId/tile/*': {
      expect: circleA(OK),
      call: () => ({ url: `/api/ledger/${A()}/tile/0/000.p/1` }),
    },
    // And its entry bundles (the leaf bytes), for members alike.
    'GET /api/ledger/:circleId/tile/entries/*': {
      expect: circleA(OK),
      call: () => ({ url: `/api/ledger/${A()}/tile/entries/000.p/1` }),
    },
    'GET /api/ledger/:circleId/export': {
      expect: circleA(OK),
      call: () => ({ url: `/api/ledger/${A()}/export` }),
    },
    // Issue 29: one's own devices' witness keys (any account); a circle's witnesses and a member's
    // cosignature on its checkpoint (members; the outsider cosigns with a key of its own, and gets 404).
    'GET /api/ledger/witness-keys': {
      expect: anyAccount(),
      call: () => ({ url: '/api/ledger/witness-keys' }),
    },
    'POST /api/ledger/witness-keys': {
      expect: anyAccount(),
      call: () => ({
        url: '/api/ledger/witness-keys',
        payload: { deviceId: randomUUID(), publicKey: witnessKeyPair().base64 },
      }),
    },
    'DELETE /api/ledger/witness-keys/:deviceId': {
      expect: anyAccount(),
      call: async (role, as) => {
        const signedInVerified = as && role !== 'unverified'
        const deviceId = signedInVerified ? (await witnessDevice(t, as)).deviceId : randomUUID()
        return { url: `/api/ledger/witness-keys/${deviceId}` }
      },
    },
    'GET /api/ledger/:circleId/witnesses': {
      expect: circleA(OK),
      call: () => ({ url: `/api/ledger/${A()}/witnesses` }),
    },
    'POST /api/ledger/:circleId/cosignatures': {
      expect: circleA(OK),
      call: async (role, as) => {
        const note = await currentCheckpoint(t, w.who.admin, A())
        const cosignature =
          as && role !== 'unverified' ? (await witnessDevice(t, as)).cosign(note) : 'not a cosignature'
        return { url: `/api/ledger/${A()}/cosignatures`, payload: { checkpoint: note, cosignature } }
      },
    },
  }
}

beforeAll(async () => {
  ;({ t, routes } = await createTestAppWithRoutes({ env: { RATE_LIMITS: 'off', PLAN_LIMITS: 'off' } }))
  w = await buildWorld()
  url = await listen(t)
  outsiderSocket = await connectAs(url, tokenOf(w.who.outsider))
}, 60_000)
afterAll(async () => {
  outsiderSocket?.close()
  await t?.close()
})

describe('authorization matrix', () => {
  it('has a row for every route under /api, and none for a route that is gone', () => {
    const declared = Object.keys(table()).map(routeKey).sort()
    expect(new Set(declared).size, 'two rows for one route').toBe(declared.length)
    expect(declared).toEqual([...new Set(routes.map((route) => routeKey(route.key)))].sort())
  })

  it('answers every route as the table says for each caller, and shows nobody what is not theirs', async () => {
    const rows = table()
    const wrong: string[] = []
    let secretSeenByReceiver = 0
    for (const [key, row] of Object.entries(rows)) {
      const method = key.split(' ')[0] as InjectOptions['method']
      for (const role of ROLES) {
        const as = role === 'anonymous' ? undefined : w.who[role]
        const call = await row.call(role, as)
        const res = await t.app.inject({
          method,
          url: call.url,
          payload: call.payload,
          headers: { ...as?.auth, ...call.headers },
        })
        const expected = row.expect[role]
        const status = res.statusCode
        const fits = expected === OK ? status >= 200 && status < 300 : status === expected
        if (!fits)
          wrong.push(`${key} as ${role}: ${status}, expected ${expected} (${res.body.slice(0, 120)})`)
        if (status >= 400 && !(typeof res.json().message === 'string' && res.json().message.length > 0)) {
          wrong.push(`${key} as ${role}: ${status} without a message`)
        }
        const shown: (string | Buffer)[] = row.shows?.(role) ?? []
        // The raw body and the headers (a file name, a Location, a Content-Disposition).
        const body = status < 300 && row.read ? row.read(res.rawPayload) : res.rawPayload
        const answer = Buffer.concat([body, Buffer.from(JSON.stringify(res.headers))])
        for (const group of HIDDEN[role]) {
          for (const sentinel of w.sentinels[group]) {
            if (shown.includes(sentinel)) continue
            if (answer.includes(sentinel)) {
              const what = typeof sentinel === 'string' ? sentinel : 'picture bytes'
              wrong.push(`${key} as ${role}: shows ${group} (${what})`)
            }
          }
        }
        if (role === 'receiver' && body.includes(w.secret)) secretSeenByReceiver++
        // HEAD runs the GET route's hooks: the same refusal, no body.
        if (method === 'GET' && expected !== OK) {
          const head = await t.app.inject({ method: 'HEAD', url: call.url, headers: { ...as?.auth } })
          if (head.statusCode !== status)
            wrong.push(`HEAD ${key} as ${role}: ${head.statusCode}, GET ${status}`)
        }
      }
    }
    expect(wrong).toEqual([])
    // The secret is not simply absent everywhere: the receiver reads it.
    expect(secretSeenByReceiver).toBeGreaterThan(0)
  }, 120_000)

  it("gives a non-member the 404 of a foreign resource for an item's ledger", async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/blockchain/item/${w.handedItem.id}`,
      headers: w.who.outsider.auth,
    })
    expect(res.statusCode).toBe(404)
    expect(res.json().message).toBe(MESSAGES.notFound)
    expect(res.body).not.toContain(w.handedItem.name)
    // The same for an id that is no item at all, for a member too.
    const none = await t.app.inject({
      method: 'GET',
      url: `/api/blockchain/item/${randomUUID()}`,
      headers: w.who.member.auth,
    })
    expect(none.statusCode).toBe(404)
    // A member reads an item without blocks as an empty chain.
    const empty = await t.app.inject({
      method: 'GET',
      url: `/api/blockchain/item/${w.item.id}`,
      headers: w.who.member.auth,
    })
    expect(empty.json()).toEqual({ blocks: [], checkpoint: expect.any(String) })
  })

  it("keeps a deleted item's chain readable to the circle's members, and to them only", async () => {
    const item = await createItem(t, w.who.admin, w.circleA.id, 'Soon gone')
    await handOver(t, w.who.admin, w.who.holder, item.id, { completeOwnership: true })
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/items/${item.id}`,
      headers: w.who.holder.auth,
    })
    expect(deleted.statusCode).toBe(200)
    const chain = (who: SignedIn) =>
      t.app.inject({ method: 'GET', url: `/api/blockchain/item/${item.id}`, headers: who.auth })
    const read = await chain(w.who.member)
    expect(read.statusCode).toBe(200)
    expect(read.json().blocks).toHaveLength(1)
    expect((await chain(w.who.outsider)).statusCode).toBe(404)
  })
})

describe('real time', () => {
  it('refuses a socket to an unverified account', async () => {
    expect(await refusedConnection(url, tokenOf(w.who.unverified))).toBe('Unauthorized')
  })

  it("lets no event of circle A reach the outsider's socket, however much happened there", async () => {
    outsiderSocket.socket.emit('join_circle', w.circleA.id)
    expect(await outsiderSocket.next('error')).toEqual({
      message: 'Forbidden',
      code: 'FORBIDDEN',
      key: 'forbidden',
    })
    // The matrix above changed circle A many times over while this socket listened. One more change in
    // A, then one in B: once the outsider has B's, anything of A's would have arrived before it.
    const member = await connectAs(url, tokenOf(w.who.member))
    try {
      const inA = await createItem(t, w.who.admin, w.circleA.id, 'Last thing')
      await member.next<{ itemId: string }>('item_update', (p) => p.itemId === inA.id)
      const inB = await createItem(t, w.who.outsider, w.circleB.id, 'Bee thing')
      await outsiderSocket.next<{ itemId: string }>('item_update', (p) => p.itemId === inB.id)
    } finally {
      member.close()
    }
    const received = JSON.stringify(outsiderSocket.received)
    expect(received).not.toContain(w.circleA.id)
    for (const sentinel of [...w.sentinels.circleA, ...w.sentinels.secret, ...w.sentinels.invitation]) {
      if (typeof sentinel === 'string') expect(received).not.toContain(sentinel)
    }
  })
})

import { MESSAGES } from '@circles/shared'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webauthnChallenges, webauthnCredentials } from '../src/db/schema'
import { softwarePasskey, type SoftwarePasskey } from './support/authenticator'
import { type SignedIn, signedIn } from './support/circles'
import { createUser } from './support/factories'
import { type TestApp, createTestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const post = (url: string, payload: object, headers = {}) =>
  t.app.inject({ method: 'POST', url: `/api/webauthn${url}`, payload, headers })

async function registrationOptions(who: SignedIn) {
  const res = await t.app.inject({ method: 'GET', url: '/api/webauthn/register/options', headers: who.auth })
  expect(res.statusCode).toBe(200)
  return res.json() as { challenge: string; pubKeyCredParams: { alg: number }[]; rp: { id: string } }
}

async function registered(who: SignedIn, passkey: SoftwarePasskey = softwarePasskey()) {
  const options = await registrationOptions(who)
  const res = await post('/register/verify', { credential: passkey.register(options) }, who.auth)
  expect(res.statusCode, res.body).toBe(200)
  return passkey
}

async function loginOptions(email?: string) {
  const res = await post('/login/options', email ? { email } : {})
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as {
    options: { challenge: string; allowCredentials?: { id: string }[] }
    userId?: string
  }
}

describe('passkey registration', () => {
  it('offers ES256 and RS256, never EdDSA, for the relying party of PUBLIC_URL', async () => {
    const who = await signedIn(t)
    const options = await registrationOptions(who)
    expect(options.pubKeyCredParams.map((p) => p.alg)).toEqual([-7, -257])
    expect(options.rp.id).toBe('localhost')
  })

  it('stores the key with its counter, device type and backup flag, and lists only my own', async () => {
    const who = await signedIn(t)
    const passkey = await registered(who)
    const other = await signedIn(t)
    await registered(other)
    const list = await t.app.inject({ method: 'GET', url: '/api/webauthn/credentials', headers: who.auth })
    expect(list.json().credentials).toEqual([
      {
        id: passkey.id,
        credentialDeviceType: 'singleDevice',
        credentialBackedUp: false,
        createdAt: expect.any(String),
      },
    ])
  })

  it('refuses a replayed, a foreign, an expired challenge and another origin', async () => {
    const who = await signedIn(t)
    const passkey = softwarePasskey()
    const options = await registrationOptions(who)
    const credential = passkey.register(options)
    expect((await post('/register/verify', { credential }, who.auth)).statusCode).toBe(200)
    const replay = await post('/register/verify', { credential }, who.auth)
    expect(replay.statusCode).toBe(400)
    expect(replay.json().message).toBe(MESSAGES.passkeyRegistrationFailed)

    // Someone else's challenge.
    const other = await signedIn(t)
    const theirs = await registrationOptions(other)
    expect(
      (await post('/register/verify', { credential: softwarePasskey().register(theirs) }, who.auth))
        .statusCode,
    ).toBe(400)

    const stale = await registrationOptions(who)
    await t.database.db
      .update(webauthnChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(webauthnChallenges.challenge, stale.challenge))
    expect(
      (await post('/register/verify', { credential: softwarePasskey().register(stale) }, who.auth))
        .statusCode,
    ).toBe(400)

    const phishing = await registrationOptions(who)
    const elsewhere = softwarePasskey().register(phishing, 'https://circles.example.evil')
    expect((await post('/register/verify', { credential: elsewhere }, who.auth)).statusCode).toBe(400)
  })

  it('needs a session, and answers a malformed credential with 400', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/webauthn/register/options' })).statusCode).toBe(
      401,
    )
    const who = await signedIn(t)
    const bad = await post(
      '/register/verify',
      { credential: { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: '!!' } } },
      who.auth,
    )
    expect(bad.statusCode).toBe(400)
  })
})

describe('passkey sign-in', () => {
  it('answers { token, user } like a password login, and the token works', async () => {
    const who = await signedIn(t, { name: 'Pia Passkey' })
    const passkey = await registered(who)
    const { options, userId } = await loginOptions(who.user.email)
    expect(userId).toBe(who.user.id)
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([passkey.id])
    const res = await post('/login/verify', { credential: passkey.assert(options), userId })
    expect(res.statusCode, res.body).toBe(200)
    const { token, user } = res.json()
    expect(user).toMatchObject({ id: who.user.id, name: 'Pia Passkey' })
    const me = await t.app.inject({
      method: 'GET',
      url: `/api/users/status/${who.user.id}`,
      headers: { authorization: `Bearer ${token}` },
    })
    expect(me.statusCode).toBe(200)
  })

  it('works without an email too (a discoverable passkey)', async () => {
    const who = await signedIn(t)
    const passkey = await registered(who)
    const { options, userId } = await loginOptions()
    expect(userId).toBeUndefined()
    const res = await post('/login/verify', { credential: passkey.assert(options) })
    expect(res.json().user.id).toBe(who.user.id)
  })

  it("says 'no passkeys yet' for an account without them, and the same for an unknown address", async () => {
    const who = await signedIn(t)
    for (const email of [who.user.email, 'nobody-here@example.com']) {
      const res = await post('/login/options', { email })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({
        code: 'NO_PASSKEYS',
        message: MESSAGES.passkeyNoCredentials,
        key: 'passkeyNoCredentials',
      })
    }
  })

  it('refuses a replayed challenge, a counter that goes backwards, and a foreign credential', async () => {
    const who = await signedIn(t)
    const passkey = await registered(who)
    const first = await loginOptions(who.user.email)
    const assertion = passkey.assert(first.options)
    expect((await post('/login/verify', { credential: assertion })).statusCode).toBe(200)
    const replay = await post('/login/verify', { credential: assertion })
    expect(replay.statusCode).toBe(401)
    expect(replay.json().message).toBe(MESSAGES.passkeyAuthenticationFailed)

    // A cloned key: its counter is behind the one stored.
    const again = await loginOptions(who.user.email)
    expect(
      (await post('/login/verify', { credential: passkey.assert(again.options, { counter: 0 }) })).statusCode,
    ).toBe(401)

    // Options for one account, answered by another account's passkey.
    const other = await signedIn(t)
    const theirs = await registered(other)
    const mine = await loginOptions(who.user.email)
    expect((await post('/login/verify', { credential: theirs.assert(mine.options) })).statusCode).toBe(401)
    // A credential nobody registered.
    const unknown = await loginOptions()
    expect(
      (await post('/login/verify', { credential: softwarePasskey().assert(unknown.options) })).statusCode,
    ).toBe(401)
  })

  it('refuses an expired challenge and an unverified account', async () => {
    const who = await signedIn(t)
    const passkey = await registered(who)
    const stale = await loginOptions(who.user.email)
    await t.database.db
      .update(webauthnChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(webauthnChallenges.challenge, stale.options.challenge))
    expect((await post('/login/verify', { credential: passkey.assert(stale.options) })).statusCode).toBe(401)

    const unverified = await createUser(t.database, { verified: false })
    const session = await signedIn(t) // registration needs a session; give the key to the unverified account
    const key = await registered(session)
    await t.database.db
      .update(webauthnCredentials)
      .set({ userId: unverified.id })
      .where(eq(webauthnCredentials.id, key.id))
    const options = await loginOptions(unverified.email)
    const res = await post('/login/verify', { credential: key.assert(options.options) })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toMatchObject({ code: 'EMAIL_NOT_VERIFIED', emailVerified: false })
  })
})

describe('deleting a passkey', () => {
  it("deletes my own; someone else's gets a 404 and stays", async () => {
    const who = await signedIn(t)
    const other = await signedIn(t)
    const mine = await registered(who)
    const theirs = await registered(other)
    const del = (id: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/webauthn/credentials/${encodeURIComponent(id)}`,
        headers: who.auth,
      })
    expect((await del(theirs.id)).statusCode).toBe(404)
    expect((await del(mine.id)).statusCode).toBe(200)
    expect((await del(mine.id)).statusCode).toBe(404)
    const list = await t.app.inject({ method: 'GET', url: '/api/webauthn/credentials', headers: other.auth })
    expect(list.json().credentials).toHaveLength(1)
  })
})

import { MESSAGES, type TPasskeyCredential } from '@circles/shared'
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

async function registered(
  who: SignedIn,
  passkey: SoftwarePasskey = softwarePasskey(),
  headers: Record<string, string> = {},
) {
  const options = await registrationOptions(who)
  const res = await post(
    '/register/verify',
    { credential: passkey.register(options) },
    { ...who.auth, ...headers },
  )
  expect(res.statusCode, res.body).toBe(200)
  return passkey
}

async function credentialsOf(who: SignedIn) {
  const res = await t.app.inject({ method: 'GET', url: '/api/webauthn/credentials', headers: who.auth })
  expect(res.statusCode).toBe(200)
  return (res.json() as { credentials: TPasskeyCredential[] }).credentials
}

const rename = (who: SignedIn, id: string, payload: unknown) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/webauthn/credentials/${encodeURIComponent(id)}`,
    headers: who.auth,
    payload: payload as object,
  })

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
        name: 'Passkey',
        lastUsedAt: null,
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

// Issue 24 (ADR 0036): named passkeys and sign-in without an email.
const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'

describe('passkey names', () => {
  it('names a new passkey after a well-known AAGUID, else the browser and system, else "Passkey"', async () => {
    const who = await signedIn(t)
    const google = await registered(
      who,
      softwarePasskey(undefined, undefined, { aaguid: 'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4', synced: true }),
      { 'user-agent': CHROME_LINUX },
    )
    const chrome = await registered(who, softwarePasskey(), { 'user-agent': CHROME_LINUX })
    const safari = await registered(
      who,
      softwarePasskey(undefined, undefined, { aaguid: '11111111-2222-3333-4444-555555555555' }),
      { 'user-agent': SAFARI_IPHONE },
    )
    const plain = await registered(who, softwarePasskey(), { 'user-agent': 'curl/8.5.0' })
    const byId = new Map((await credentialsOf(who)).map((c) => [c.id, c]))
    expect(byId.get(google.id)).toMatchObject({
      name: 'Google Password Manager',
      credentialDeviceType: 'multiDevice',
      credentialBackedUp: true,
    })
    expect(byId.get(chrome.id)?.name).toBe('Chrome on Linux')
    expect(byId.get(safari.id)?.name).toBe('Safari on iOS')
    expect(byId.get(plain.id)?.name).toBe('Passkey')
    const [row] = await t.database.db
      .select({ aaguid: webauthnCredentials.aaguid })
      .from(webauthnCredentials)
      .where(eq(webauthnCredentials.id, google.id))
    expect(row?.aaguid).toBe('ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4')
  })

  it('renames my own passkey, trimmed; the list shows the new name', async () => {
    const who = await signedIn(t)
    const passkey = await registered(who)
    const res = await rename(who, passkey.id, { name: '  Work laptop  ' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      credential: expect.objectContaining({ id: passkey.id, name: 'Work laptop' }),
      message: MESSAGES.passkeyRenamed,
    })
    expect((await credentialsOf(who))[0]?.name).toBe('Work laptop')
    // 60 characters is the most.
    const longest = 'Ä'.repeat(58) + '🔑'
    const res60 = await rename(who, passkey.id, { name: longest })
    expect(res60.statusCode, res60.body).toBe(200)
    expect(res60.json().credential.name).toBe(longest)
  })

  it("answers someone else's passkey and an unknown one with the same 404, and leaves theirs", async () => {
    const who = await signedIn(t)
    const other = await signedIn(t)
    const theirs = await registered(other)
    for (const id of [theirs.id, 'bm90LWEtcGFzc2tleQ']) {
      const res = await rename(who, id, { name: 'Mine now' })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toMatchObject({ message: MESSAGES.passkeyNotFound, key: 'passkeyNotFound' })
    }
    expect((await credentialsOf(other))[0]?.name).toBe('Passkey')
    const anonymous = await t.app.inject({
      method: 'PATCH',
      url: `/api/webauthn/credentials/${theirs.id}`,
      payload: { name: 'x' },
    })
    expect(anonymous.statusCode).toBe(401)
  })

  it('refuses an empty, a blank, a too long name and control characters with clear messages', async () => {
    const who = await signedIn(t)
    const passkey = await registered(who)
    const cases: [unknown, string][] = [
      [{ name: '' }, MESSAGES.passkeyNameRequired],
      [{ name: '   ' }, MESSAGES.passkeyNameRequired],
      [{ name: 'x'.repeat(61) }, MESSAGES.passkeyNameTooLong],
      [{ name: 'Bad\u0000name' }, MESSAGES.invalidCharacters],
      [{}, MESSAGES.passkeyNameRequired],
      [{ name: 42 }, MESSAGES.passkeyNameRequired],
    ]
    for (const [payload, message] of cases) {
      const res = await rename(who, passkey.id, payload)
      expect(res.statusCode, JSON.stringify(payload)).toBe(400)
      expect(res.json().message).toBe(message)
    }
    expect((await credentialsOf(who))[0]?.name).toBe('Passkey')
  })
})

describe('discoverable passkeys', () => {
  it('asks for a resident key and user verification at registration', async () => {
    const who = await signedIn(t)
    const options = (await registrationOptions(who)) as unknown as {
      authenticatorSelection: { residentKey: string; userVerification: string; requireResidentKey: boolean }
    }
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: 'required',
    })
  })

  it('refuses to register a passkey that did not verify its user', async () => {
    const who = await signedIn(t)
    const options = await registrationOptions(who)
    const credential = softwarePasskey(undefined, undefined, { verifiesUser: false }).register(options)
    const res = await post('/register/verify', { credential }, who.auth)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe(MESSAGES.passkeyRegistrationFailed)
  })

  it('gives options without an email no allowCredentials, requires verification, and finds the account by the credential', async () => {
    const who = await signedIn(t)
    const passkey = await registered(who, softwarePasskey(undefined, undefined, { synced: true }))
    const { options, userId } = (await loginOptions()) as {
      options: { challenge: string; allowCredentials?: unknown[]; userVerification?: string }
      userId?: string
    }
    expect(userId).toBeUndefined()
    expect(options.allowCredentials ?? []).toEqual([])
    expect(options.userVerification).toBe('required')
    const res = await post('/login/verify', { credential: passkey.assert(options) })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().user.id).toBe(who.user.id)
    // The counter moved and the list says when it was last used.
    const [listed] = await credentialsOf(who)
    expect(listed?.lastUsedAt).toEqual(expect.any(String))
    const [row] = await t.database.db
      .select({ counter: webauthnCredentials.counter })
      .from(webauthnCredentials)
      .where(eq(webauthnCredentials.id, passkey.id))
    expect(row?.counter).toBe(passkey.counter)
    // The same assertion again (a replay) and a counter behind the stored one are refused.
    const again = await loginOptions()
    const behind = await post('/login/verify', { credential: passkey.assert(again.options, { counter: 1 }) })
    expect(behind.statusCode).toBe(401)
  })

  it('refuses an email-less sign-in whose passkey did not verify its user; the email path still takes it', async () => {
    const who = await signedIn(t)
    // An older passkey, or a security key without a PIN: it signs without verifying its user.
    const old = await registered(who)
    old.verifiesUser = false
    const without = await loginOptions()
    const refused = await post('/login/verify', { credential: old.assert(without.options) })
    expect(refused.statusCode).toBe(401)
    expect(refused.json().message).toBe(MESSAGES.passkeyAuthenticationFailed)
    const withEmail = await loginOptions(who.user.email)
    expect(withEmail.options.allowCredentials?.map((c) => c.id)).toEqual([old.id])
    const ok = await post('/login/verify', {
      credential: old.assert(withEmail.options),
      userId: withEmail.userId,
    })
    expect(ok.statusCode, ok.body).toBe(200)
    expect((await credentialsOf(who))[0]?.name).toBe('Passkey')
  })

  it("answers an unknown credential without an email with the spec's failure, and leaves no session", async () => {
    const options = await loginOptions()
    const res = await post('/login/verify', { credential: softwarePasskey().assert(options.options) })
    expect(res.statusCode).toBe(401)
    expect(res.json()).toMatchObject({
      message: MESSAGES.passkeyAuthenticationFailed,
      key: 'passkeyAuthenticationFailed',
    })
    expect(res.json().token).toBeUndefined()
  })
})

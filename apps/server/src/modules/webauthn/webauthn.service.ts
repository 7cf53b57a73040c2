import { MESSAGES, type TLoginResponse, type TPasskeyCredential, type TUser } from '@circles/shared'
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransportFuture,
  RegistrationResponseJSON,
} from '@simplewebauthn/server'
import type * as SimpleWebAuthn from '@simplewebauthn/server'
import type { AppContext } from '../../context'
import { AppError } from '../../lib/errors'
import type { AccountsService } from '../users/accounts.service'
import * as repo from './webauthn.repository'
import type { CredentialRow } from './webauthn.repository'
import { defaultPasskeyName } from './passkey-names'

/** Spec 000 §9: ES256 and RS256; never EdDSA (-8). */
const ALGORITHMS = [-7, -257]
const CHALLENGE_TTL_MS = 5 * 60 * 1000

/**
 * @simplewebauthn/server, loaded at the first passkey request rather than at start: its import is
 * the largest of the server's (about 0.35 s of CPU and 13 MB), and most servers rarely see a passkey
 * (docs/decisions/0045).
 */
let simpleWebAuthn: Promise<typeof SimpleWebAuthn> | undefined
const webauthn = () => (simpleWebAuthn ??= import('@simplewebauthn/server'))
const CEREMONY_TIMEOUT_MS = 60_000

const authFailed = () => new AppError('UNAUTHORIZED', MESSAGES.passkeyAuthenticationFailed)
const registrationFailed = () => new AppError('VALIDATION_ERROR', MESSAGES.passkeyRegistrationFailed)

function toCredential(row: CredentialRow): TPasskeyCredential {
  return {
    id: row.id,
    credentialDeviceType: row.deviceType,
    credentialBackedUp: row.backedUp,
    createdAt: row.createdAt.toISOString(),
    name: row.name,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  }
}

/** The challenge the browser signed, read from its client data (verification checks it again). */
function challengeOf(credential: { response: { clientDataJSON: string } }): string {
  try {
    const data: unknown = JSON.parse(
      Buffer.from(credential.response.clientDataJSON, 'base64url').toString('utf8'),
    )
    const challenge = (data as { challenge?: unknown }).challenge
    // Our challenges are base64url; anything else (a NUL, say) must not reach the database's text.
    if (typeof challenge === 'string' && /^[A-Za-z0-9_-]{1,512}$/.test(challenge)) return challenge
  } catch {
    // Not JSON: answered below like any unknown challenge.
  }
  return ''
}

const descriptor = (row: CredentialRow) => ({
  id: row.id,
  transports: row.transports as AuthenticatorTransportFuture[],
})

/**
 * Passkeys with @simplewebauthn/server (issue 13). The relying party is PUBLIC_URL's host and origin;
 * every challenge is stored, expires after 5 minutes and is deleted by the first verification that
 * names it. Access first: registration and the credential list need a session; sign-in needs none.
 */
export function createWebauthnService(
  ctx: AppContext,
  accounts: Pick<AccountsService, 'findIdByEmail' | 'sessionFor'>,
) {
  const publicUrl = new URL(ctx.config.publicUrl)
  const rp = { id: publicUrl.hostname, origin: publicUrl.origin, name: 'Circles' }
  const expiry = () => new Date(Date.now() + CHALLENGE_TTL_MS)

  async function registrationOptions(actor: TUser) {
    const existing = await repo.listCredentials(ctx.db, actor.id)
    const options = await (
      await webauthn()
    ).generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: actor.email,
      userDisplayName: actor.name,
      userID: Buffer.from(actor.id.replaceAll('-', ''), 'hex'),
      attestationType: 'none',
      excludeCredentials: existing.map(descriptor),
      // Discoverable and user-verified (ADR 0036): every new passkey also signs in without an email.
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      supportedAlgorithmIDs: ALGORITHMS,
      timeout: CEREMONY_TIMEOUT_MS,
    })
    await repo.saveChallenge(ctx.db, {
      challenge: options.challenge,
      purpose: 'registration',
      userId: actor.id,
      expiresAt: expiry(),
    })
    return options as typeof options & Record<string, unknown>
  }

  /** `userAgent` names the passkey when its AAGUID is not a well-known one (ADR 0036). */
  async function registerVerify(
    actor: TUser,
    credential: RegistrationResponseJSON,
    userAgent?: string,
  ): Promise<TPasskeyCredential> {
    const challenge = await repo.consumeChallenge(ctx.db, challengeOf(credential), 'registration')
    if (!challenge || challenge.userId !== actor.id) throw registrationFailed()
    let info
    try {
      const result = await (
        await webauthn()
      ).verifyRegistrationResponse({
        response: credential,
        expectedChallenge: challenge.challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification: true,
        supportedAlgorithmIDs: ALGORITHMS,
      })
      if (!result.verified) throw registrationFailed()
      info = result.registrationInfo
    } catch (error) {
      ctx.log.info({ userId: actor.id, reason: (error as Error).message }, 'passkey registration refused')
      throw registrationFailed()
    }
    const row = await repo.insertCredential(ctx.db, {
      id: info.credential.id,
      userId: actor.id,
      publicKey: info.credential.publicKey,
      counter: info.credential.counter,
      transports: info.credential.transports ?? [],
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      name: defaultPasskeyName(info.aaguid, userAgent),
      aaguid: info.aaguid,
    })
    if (!row) throw new AppError('CONFLICT', MESSAGES.passkeyRegistrationFailed)
    ctx.log.info({ userId: actor.id }, 'passkey registered')
    return toCredential(row)
  }

  /**
   * With an email, the options list that account's passkeys; an address without an account gets the
   * same answer as an account without passkeys. Without an email, any passkey of this site may answer
   * (a discoverable one, found by its id at verification), and it must verify its user: it is then the
   * only thing that names the account (ADR 0036). With an email, 'preferred' keeps older passkeys working.
   */
  async function loginOptions(email: string | undefined) {
    const userId = email ? await accounts.findIdByEmail(email) : undefined
    const credentials = userId ? await repo.listCredentials(ctx.db, userId) : []
    if (email && credentials.length === 0) throw new AppError('NO_PASSKEYS', MESSAGES.passkeyNoCredentials)
    const options = await (
      await webauthn()
    ).generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: credentials.map(descriptor),
      userVerification: userId ? 'preferred' : 'required',
      timeout: CEREMONY_TIMEOUT_MS,
    })
    await repo.saveChallenge(ctx.db, {
      challenge: options.challenge,
      purpose: 'authentication',
      userId: userId ?? null,
      expiresAt: expiry(),
    })
    return { options: options as typeof options & Record<string, unknown>, ...(userId && { userId }) }
  }

  /** Signs in like a password: rate limited per address, refused for unverified accounts. */
  /**
   * The authenticator's new signature counter when `credential` is a valid assertion of `challenge` by
   * the stored passkey; null (logged as `refusal`) otherwise. A counter lower than stored is refused
   * here too: the sign of a cloned authenticator.
   */
  async function verifiedCounter(
    credential: AuthenticationResponseJSON,
    challenge: string,
    stored: CredentialRow,
    opts: { requireUserVerification: boolean; logged: Record<string, string>; refusal: string },
  ): Promise<number | null> {
    try {
      const result = await (
        await webauthn()
      ).verifyAuthenticationResponse({
        response: credential,
        expectedChallenge: challenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        credential: {
          ...descriptor(stored),
          publicKey: new Uint8Array(stored.publicKey),
          counter: stored.counter,
        },
        requireUserVerification: opts.requireUserVerification,
      })
      if (result.verified) return result.authenticationInfo.newCounter
      ctx.log.warn({ ...opts.logged, reason: 'not verified' }, opts.refusal)
    } catch (error) {
      ctx.log.warn({ ...opts.logged, reason: (error as Error).message }, opts.refusal)
    }
    return null
  }

  async function loginVerify(
    credential: AuthenticationResponseJSON,
    userId: string | undefined,
    ip: string,
  ): Promise<TLoginResponse> {
    const attempt = await ctx.rateLimits.consume([['loginPerAddress', ip]], MESSAGES.tooManyRequests)
    const challenge = await repo.consumeChallenge(ctx.db, challengeOf(credential), 'authentication')
    if (!challenge) throw authFailed()
    const stored = await repo.findCredential(ctx.db, credential.id)
    if (!stored) throw authFailed()
    // The passkey must belong to the account the options were for, and to the one the client names.
    if ((challenge.userId && challenge.userId !== stored.userId) || (userId && userId !== stored.userId)) {
      throw authFailed()
    }
    const newCounter = await verifiedCounter(credential, challenge.challenge, stored, {
      requireUserVerification: !challenge.userId,
      logged: { credentialUser: stored.userId },
      refusal: 'passkey sign-in refused',
    })
    if (newCounter === null) throw authFailed()
    if (!(await repo.advanceCounter(ctx.db, stored.id, stored.counter, newCounter))) throw authFailed()
    await attempt.refund()
    return accounts.sessionFor(stored.userId)
  }

  async function listCredentials(actor: TUser): Promise<TPasskeyCredential[]> {
    return (await repo.listCredentials(ctx.db, actor.id)).map(toCredential)
  }

  /** Someone else's credential id gets the same 404 as one that does not exist. */
  async function deleteCredential(actor: TUser, id: string): Promise<void> {
    if (!(await repo.deleteCredential(ctx.db, actor.id, id))) {
      throw new AppError('NOT_FOUND', MESSAGES.passkeyNotFound)
    }
    ctx.log.info({ userId: actor.id }, 'passkey deleted')
  }

  /**
   * Re-authentication of the signed-in person (issue 24: before deleting the account): a challenge
   * bound to their account, listing only their passkeys.
   */
  async function reauthOptions(actor: TUser) {
    const credentials = await repo.listCredentials(ctx.db, actor.id)
    if (credentials.length === 0) throw new AppError('NO_PASSKEYS', MESSAGES.passkeyNoCredentials)
    const options = await (
      await webauthn()
    ).generateAuthenticationOptions({
      rpID: rp.id,
      allowCredentials: credentials.map(descriptor),
      userVerification: 'preferred',
      timeout: CEREMONY_TIMEOUT_MS,
    })
    await repo.saveChallenge(ctx.db, {
      challenge: options.challenge,
      purpose: 'authentication',
      userId: actor.id,
      expiresAt: expiry(),
    })
    return { options: options as typeof options & Record<string, unknown> }
  }

  /**
   * True when `credential` is a fresh assertion, by one of the actor's own passkeys, of a challenge
   * handed out to the actor (single use). Any failure is false; the caller says what it means.
   */
  async function reauthVerify(actor: TUser, credential: AuthenticationResponseJSON): Promise<boolean> {
    const challenge = await repo.consumeChallenge(ctx.db, challengeOf(credential), 'authentication')
    if (!challenge || challenge.userId !== actor.id) return false
    const stored = await repo.findCredential(ctx.db, credential.id)
    if (!stored || stored.userId !== actor.id) return false
    const newCounter = await verifiedCounter(credential, challenge.challenge, stored, {
      requireUserVerification: false,
      logged: { userId: actor.id },
      refusal: 'passkey re-authentication refused',
    })
    if (newCounter === null) return false
    return repo.advanceCounter(ctx.db, stored.id, stored.counter, newCounter)
  }

  /** Issue 24: renames one of my passkeys; someone else's gets the same 404 as an unknown one. */
  async function renameCredential(actor: TUser, id: string, name: string): Promise<TPasskeyCredential> {
    const row = await repo.renameCredential(ctx.db, actor.id, id, name)
    if (!row) throw new AppError('NOT_FOUND', MESSAGES.passkeyNotFound)
    return toCredential(row)
  }

  return {
    registrationOptions,
    registerVerify,
    loginOptions,
    loginVerify,
    listCredentials,
    deleteCredential,
    reauthOptions,
    reauthVerify,
    renameCredential,
  }
}

export type WebauthnService = ReturnType<typeof createWebauthnService>

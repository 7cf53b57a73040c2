import {
  LIMITS,
  MESSAGES,
  type Language,
  type TLoginRequest,
  type TLoginResponse,
  type TNoticePreferences,
  type TNoticePreferencesUpdate,
  type TRegisterRequest,
  type TRegisterResponse,
  type TStatusResponse,
  type TUpdateMeRequest,
  type TUser,
} from '@circles/shared'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import { AppError, forbidden, unauthorized } from '../../lib/errors'
import { canonicalTimeZone } from '../../lib/time-zones'
import { enqueueEmail } from '../../lib/mailer/outbox'
import { emails } from '../../lib/mailer/templates'
import { hashPassword, verifyAgainstDummy, verifyPassword } from '../../lib/passwords'
import { hashToken, randomToken } from '../../lib/tokens'
import { toPublicUser } from './user-view'
import * as repo from './users.repository'
import type { UserRow } from './users.repository'

const noticesOf = (row: UserRow): TNoticePreferences => ({
  handoverRequests: row.notifyHandoverRequests,
  handoverAnswers: row.notifyHandoverAnswers,
  invitations: row.notifyInvitations,
  loanReminders: row.notifyLoanReminders,
  borrowRequests: row.notifyBorrowRequests,
  loanChanges: row.notifyLoanChanges,
  push: {
    handoverRequests: row.pushHandoverRequests,
    handoverAnswers: row.pushHandoverAnswers,
    invitations: row.pushInvitations,
    loanReminders: row.pushLoanReminders,
  },
})

export function createAccountsService(ctx: AppContext) {
  /** Queues the verification email in the caller's transaction. */
  async function queueVerificationEmail(tx: Executor, user: repo.UserRow) {
    const token = randomToken()
    await repo.replaceToken(
      tx,
      'verification',
      user.id,
      hashToken(token),
      new Date(Date.now() + LIMITS.emailTokenTtlMs),
    )
    const link = `${ctx.config.publicUrl}/verify?token=${token}`
    await enqueueEmail(tx, {
      to: user.email,
      email: emails.verifyEmail(user.language, { name: user.name, link }),
    })
  }

  async function register(
    input: TRegisterRequest,
    language: Language,
    ip: string,
  ): Promise<TRegisterResponse> {
    // Each registration may email an address someone typed: limited per client address, a burst per
    // minute and a ceiling per hour. One that sends no email (an invitation proved the address) is free.
    const attempt = await ctx.rateLimits.consume(
      [
        ['registerPerAddressBurst', ip],
        ['registerPerAddress', ip],
      ],
      MESSAGES.tooManyRequests,
    )
    const passwordHash = await hashPassword(input.password)
    const user = await ctx.db.transaction(async (tx) => {
      let invitedAndMatching = false
      if (input.invitationToken) {
        const invitedEmail = await ctx.invitations.findPendingEmail(input.invitationToken, tx)
        if (!invitedEmail) throw new AppError('INVALID_INVITATION', MESSAGES.invalidInvitation)
        if (invitedEmail !== input.email)
          throw new AppError('VALIDATION_ERROR', MESSAGES.invitationEmailMismatch)
        invitedAndMatching = true
      }
      const created = await repo.insertUser(tx, {
        name: input.name,
        email: input.email,
        passwordHash,
        language: input.language ?? language,
        // The invitation email reached this address: that proves it as well as a verification link would.
        emailVerified: invitedAndMatching,
      })
      if (!created) throw new AppError('USER_EXISTS', MESSAGES.userExists)
      if (!created.emailVerified) await queueVerificationEmail(tx, created)
      return created
    })
    ctx.nudgeMail()
    if (user.emailVerified) await attempt.refund()
    ctx.log.info({ userId: user.id, verified: user.emailVerified }, 'user registered')
    if (!user.emailVerified) {
      return { message: MESSAGES.registrationNeedsVerification, requiresVerification: true }
    }
    return {
      message: MESSAGES.registrationSuccess,
      requiresVerification: false,
      token: ctx.sessionTokens.issue({ userId: user.id, sv: user.sessionVersion }),
      user: toPublicUser(user),
    }
  }

  async function login(input: TLoginRequest, ip: string): Promise<TLoginResponse> {
    // Guessing is counted per account and address, per address and per account (lib/rate-limits.ts):
    // it slows down the guesser's own address and never locks the owner out from theirs.
    const attempt = await ctx.rateLimits.login(input.email, ip)
    const user = await repo.findUserByEmail(ctx.db, input.email)
    const ok = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyAgainstDummy(input.password)
    if (!user || !ok) throw new AppError('INVALID_CREDENTIALS', MESSAGES.invalidCredentials)
    await attempt.succeeded()
    if (!user.emailVerified) {
      throw new AppError('EMAIL_NOT_VERIFIED', MESSAGES.emailNotVerified, { emailVerified: false })
    }
    ctx.log.info({ userId: user.id }, 'user logged in')
    const token = ctx.sessionTokens.issue({ userId: user.id, sv: user.sessionVersion }, input.rememberMe)
    return { token, user: toPublicUser(user) }
  }

  /** Resolves a bearer token to its user; a reset password or an unverified account ends the session. */
  async function authenticate(token: string): Promise<TUser> {
    const claims = ctx.sessionTokens.verify(token)
    const user = await repo.findUserById(ctx.db, claims.userId)
    if (!user || user.sessionVersion !== claims.sv || !user.emailVerified || user.deletedAt)
      throw unauthorized()
    return toPublicUser(user)
  }

  async function getStatus(actor: TUser, userId: string): Promise<TStatusResponse> {
    if (actor.id !== userId) throw forbidden()
    return { id: actor.id, emailVerified: actor.emailVerified }
  }

  async function updateMe(actor: TUser, input: TUpdateMeRequest): Promise<TUser> {
    const row = await repo.updateUser(ctx.db, actor.id, {
      name: input.name,
      ...(input.language && { language: input.language }),
    })
    if (!row) throw unauthorized()
    return toPublicUser(row)
  }

  /** For passkey sign-in: the account behind an address, if any. */
  async function findIdByEmail(email: string): Promise<string | undefined> {
    return (await repo.findUserByEmail(ctx.db, email))?.id
  }

  /** For passkey sign-in, once the passkey checked out: a session like a password login's. */
  async function sessionFor(userId: string): Promise<TLoginResponse> {
    const user = await repo.findUserById(ctx.db, userId)
    if (!user || user.deletedAt) throw unauthorized()
    if (!user.emailVerified) {
      throw new AppError('EMAIL_NOT_VERIFIED', MESSAGES.emailNotVerified, { emailVerified: false })
    }
    ctx.log.info({ userId: user.id }, 'user logged in with a passkey')
    return {
      token: ctx.sessionTokens.issue({ userId: user.id, sv: user.sessionVersion }),
      user: toPublicUser(user),
    }
  }

  async function notices(actor: TUser): Promise<TNoticePreferences> {
    const row = await repo.findUserById(ctx.db, actor.id)
    if (!row) throw unauthorized()
    return noticesOf(row)
  }

  /** The lending kinds (issue 26) left out of an older client's body stay as they are. */
  async function updateNotices(actor: TUser, input: TNoticePreferencesUpdate): Promise<TNoticePreferences> {
    const row = await repo.updateUser(ctx.db, actor.id, {
      notifyHandoverRequests: input.handoverRequests,
      notifyHandoverAnswers: input.handoverAnswers,
      notifyInvitations: input.invitations,
      ...(input.loanReminders === undefined ? {} : { notifyLoanReminders: input.loanReminders }),
      ...(input.borrowRequests === undefined ? {} : { notifyBorrowRequests: input.borrowRequests }),
      ...(input.loanChanges === undefined ? {} : { notifyLoanChanges: input.loanChanges }),
      // Issue 27: the push switches given; the others stay.
      ...(input.push?.handoverRequests === undefined
        ? {}
        : { pushHandoverRequests: input.push.handoverRequests }),
      ...(input.push?.handoverAnswers === undefined
        ? {}
        : { pushHandoverAnswers: input.push.handoverAnswers }),
      ...(input.push?.invitations === undefined ? {} : { pushInvitations: input.push.invitations }),
      ...(input.push?.loanReminders === undefined ? {} : { pushLoanReminders: input.push.loanReminders }),
    })
    if (!row) throw unauthorized()
    return noticesOf(row)
  }

  /** Issue 26: the browser's time zone, checked with Intl (docs/decisions/0049). */
  async function updateTimeZone(actor: TUser, zone: string): Promise<{ timeZone: string | null }> {
    const timeZone = canonicalTimeZone(zone)
    if (!timeZone) throw new AppError('VALIDATION_ERROR', MESSAGES.invalidTimeZone)
    const row = await repo.updateUser(ctx.db, actor.id, { timeZone })
    if (!row) throw unauthorized()
    return { timeZone: row.timeZone }
  }

  async function timeZoneOf(actor: TUser): Promise<{ timeZone: string | null }> {
    const row = await repo.findUserById(ctx.db, actor.id)
    if (!row) throw unauthorized()
    return { timeZone: row.timeZone }
  }

  return {
    updateTimeZone,
    timeZoneOf,
    register,
    login,
    authenticate,
    getStatus,
    updateMe,
    queueVerificationEmail,
    findIdByEmail,
    sessionFor,
    notices,
    updateNotices,
  }
}

export type AccountsService = ReturnType<typeof createAccountsService>

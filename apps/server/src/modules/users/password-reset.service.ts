import {
  LIMITS,
  MESSAGES,
  type TEmailRequest,
  type TMessageResponse,
  type TResetPasswordRequest,
} from '@circles/shared'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import { AppError } from '../../lib/errors'
import { enqueueEmail } from '../../lib/mailer/outbox'
import { emails } from '../../lib/mailer/templates'
import { hashPassword } from '../../lib/passwords'
import { hashToken, randomToken } from '../../lib/tokens'
import * as repo from './users.repository'

const invalidLink = () => new AppError('INVALID_TOKEN', MESSAGES.resetLinkInvalid)

export function createPasswordResetService(ctx: AppContext) {
  /** Answers the same whether the email exists or not. */
  async function requestReset(input: TEmailRequest, ip: string): Promise<TMessageResponse> {
    await ctx.rateLimits.consume(
      [
        ['resetPerEmail', input.email],
        ['resetPerAddress', ip],
      ],
      MESSAGES.tooManyRequests,
    )
    const queued = await ctx.db.transaction(async (tx) => {
      const user = await repo.findUserByEmail(tx, input.email)
      if (!user) return false
      const token = randomToken()
      await repo.replaceToken(
        tx,
        'reset',
        user.id,
        hashToken(token),
        new Date(Date.now() + LIMITS.emailTokenTtlMs),
      )
      const link = `${ctx.config.publicUrl}/reset-password?token=${token}`
      await enqueueEmail(tx, {
        to: user.email,
        email: emails.passwordReset(user.language, { name: user.name, link }),
      })
      return true
    })
    if (queued) ctx.nudgeMail()
    return { message: MESSAGES.resetRequested }
  }

  async function findUsableToken(tx: Executor, rawToken: string) {
    const token = await repo.findToken(tx, 'reset', hashToken(rawToken))
    if (!token || token.usedAt || token.expiresAt.getTime() <= Date.now()) throw invalidLink()
    return token
  }

  async function verifyResetToken(rawToken: string): Promise<{ valid: true }> {
    await findUsableToken(ctx.db, rawToken)
    return { valid: true }
  }

  /**
   * Single use. The new password ends every earlier session (session version bump), and since the link
   * reached the inbox, it also proves the email address.
   */
  async function resetPassword(input: TResetPasswordRequest): Promise<TMessageResponse> {
    const passwordHash = await hashPassword(input.newPassword)
    const userId = await ctx.db.transaction(async (tx) => {
      const token = await findUsableToken(tx, input.token)
      if (!(await repo.consumeToken(tx, 'reset', token.id))) throw invalidLink()
      await repo.setPasswordAndEndSessions(tx, token.userId, passwordHash)
      return token.userId
    })
    ctx.log.info({ userId }, 'password reset')
    // Every earlier session ended with the reset: their open sockets close too.
    ctx.events.publish('sessions.ended', { userId })
    return { message: MESSAGES.resetSuccess }
  }

  return { requestReset, verifyResetToken, resetPassword }
}

import {
  MESSAGES,
  type TChangePasswordRequest,
  type TChangePasswordResponse,
  type TUser,
} from '@circles/shared'
import type { AppContext } from '../../context'
import { AppError, unauthorized } from '../../lib/errors'
import { enqueueEmail } from '../../lib/mailer/outbox'
import { emails } from '../../lib/mailer/templates'
import { hashPassword, verifyPassword } from '../../lib/passwords'
import * as repo from './users.repository'

/** Change password (issue 24, docs/decisions/0039-change-password.md). */
export function createChangePasswordService(ctx: AppContext) {
  /**
   * The signed-in user changes their password, proving the current one. Wrong guesses count like
   * sign-in guesses of the same account from the same address (one budget for both doors; the owner is
   * slowed, never locked out). On success every other session ends (session version bump, their sockets
   * close), a security notice is queued in the same transaction, and this session goes on with the
   * returned token, which expires when the one it replaces would have.
   */
  async function changePassword(
    actor: TUser,
    sessionToken: string,
    input: TChangePasswordRequest,
    ip: string,
  ): Promise<TChangePasswordResponse> {
    const claims = ctx.sessionTokens.verify(sessionToken)
    if (claims.userId !== actor.id) throw unauthorized()
    const user = await repo.findUserById(ctx.db, actor.id)
    if (!user || user.sessionVersion !== claims.sv) throw unauthorized()
    // Today every account has one; said plainly should an account ever have none.
    if (!user.passwordHash) throw new AppError('VALIDATION_ERROR', MESSAGES.noPasswordToChange)
    const attempt = await ctx.rateLimits.login(user.email, ip)
    if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
      ctx.log.info({ userId: user.id }, 'password change refused: wrong current password')
      throw new AppError('VALIDATION_ERROR', MESSAGES.currentPasswordWrong, { field: 'currentPassword' })
    }
    await attempt.succeeded()
    const passwordHash = await hashPassword(input.newPassword)
    const sessionVersion = await ctx.db.transaction(async (tx) => {
      // Only if nothing changed since the check: a parallel change or a reset ended this session.
      const next = await repo.changePasswordAndEndSessions(
        tx,
        user.id,
        { sessionVersion: user.sessionVersion, passwordHash: user.passwordHash },
        passwordHash,
      )
      if (next === undefined) throw unauthorized()
      await enqueueEmail(tx, {
        to: user.email,
        email: emails.passwordChanged(user.language, {
          name: user.name,
          resetLink: `${ctx.config.publicUrl}/forgot-password`,
        }),
      })
      return next
    })
    ctx.nudgeMail()
    ctx.log.info({ userId: user.id }, 'password changed')
    // Every other session ended: their open sockets close too (this tab's reconnects with the new token).
    ctx.events.publish('sessions.ended', { userId: user.id })
    return { message: MESSAGES.passwordChanged, token: ctx.sessionTokens.renew(sessionToken, sessionVersion) }
  }

  return { changePassword }
}

export type ChangePasswordService = ReturnType<typeof createChangePasswordService>

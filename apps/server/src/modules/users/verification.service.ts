import {
  MESSAGES,
  type TEmailRequest,
  type TMessageResponse,
  type TVerifyEmailResponse,
} from '@circles/shared'
import type { AppContext } from '../../context'
import { AppError } from '../../lib/errors'
import { hashToken } from '../../lib/tokens'
import type { AccountsService } from './accounts.service'
import * as repo from './users.repository'

const invalidToken = () =>
  new AppError('INVALID_TOKEN', MESSAGES.verificationTokenInvalid, { verified: false })

export function createVerificationService(ctx: AppContext, accounts: AccountsService) {
  /** Single-purpose link: the first use verifies, a repeat use answers "already verified". */
  async function verifyEmail(rawToken: string, ip: string): Promise<TVerifyEmailResponse> {
    // Counts links that were not valid: a valid one gives its point back.
    const attempt = await ctx.rateLimits.consume([['verifyPerAddress', ip]], MESSAGES.tooManyVerifications)
    const result = await ctx.db.transaction(async (tx) => {
      const token = await repo.findToken(tx, 'verification', hashToken(rawToken))
      if (!token) throw invalidToken()
      const user = await repo.findUserById(tx, token.userId)
      if (!user) throw invalidToken()
      if (token.usedAt || user.emailVerified)
        return { verified: true, message: MESSAGES.emailAlreadyVerified, email: user.email }
      if (token.expiresAt.getTime() <= Date.now()) throw invalidToken()
      if (!(await repo.consumeToken(tx, 'verification', token.id))) {
        return { verified: true, message: MESSAGES.emailAlreadyVerified, email: user.email }
      }
      await repo.updateUser(tx, user.id, { emailVerified: true })
      ctx.log.info({ userId: user.id }, 'email verified')
      return { verified: true, message: MESSAGES.emailVerified, email: user.email }
    })
    await attempt.refund()
    return result
  }

  /** Same answer whether the address exists, is verified or not: nothing to learn about accounts. */
  async function resendVerification(input: TEmailRequest, ip: string): Promise<TMessageResponse> {
    await ctx.rateLimits.consume(
      [
        ['resendPerEmail', input.email],
        ['resendPerAddress', ip],
      ],
      MESSAGES.tooManyVerificationRequests,
    )
    const queued = await ctx.db.transaction(async (tx) => {
      const user = await repo.findUserByEmail(tx, input.email)
      if (!user || user.emailVerified) return false
      await accounts.queueVerificationEmail(tx, user)
      return true
    })
    if (queued) ctx.nudgeMail()
    return { message: MESSAGES.verificationSent }
  }

  return { verifyEmail, resendVerification }
}

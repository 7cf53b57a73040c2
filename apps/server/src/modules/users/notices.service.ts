import { MESSAGES } from '@circles/shared'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import { AppError } from '../../lib/errors'
import { type OutgoingEmail, enqueueEmail } from '../../lib/mailer/outbox'
import type { RenderedEmail } from '../../lib/mailer/templates'
import type { NoticeKind } from '../../lib/unsubscribe-tokens'
import * as repo from './users.repository'
import type { UserRow } from './users.repository'

const COLUMN = {
  handoverRequests: 'notifyHandoverRequests',
  handoverAnswers: 'notifyHandoverAnswers',
  invitations: 'notifyInvitations',
  loanReminders: 'notifyLoanReminders',
  // Issue 26 (h-borrow): asks to borrow, answers to them, the next in line offered.
  borrowRequests: 'notifyBorrowRequests',
  // Issue 26: the steps of a loan.
  loanChanges: 'notifyLoanChanges',
} as const satisfies Record<NoticeKind, keyof UserRow>

/**
 * Email notices (issue 13): queued through the outbox inside the caller's transaction, in the
 * recipient's language, only if they want this kind; each carries a signed unsubscribe link. The
 * caller nudges the mail worker after its commit.
 */
export function createNoticesService(ctx: AppContext) {
  const base = ctx.config.publicUrl
  const pageUrl = (token: string) => `${base}/unsubscribe?token=${encodeURIComponent(token)}`
  const oneClickUrl = (token: string) => `${base}/api/users/unsubscribe?token=${encodeURIComponent(token)}`

  async function queue(
    tx: Executor,
    userId: string,
    kind: NoticeKind,
    render: (recipient: UserRow, unsubscribeUrl: string) => RenderedEmail,
  ): Promise<boolean> {
    const user = await repo.findUserById(tx, userId)
    const email = user ? emailFor(user, kind, render) : null
    if (!email) return false
    await enqueueEmail(tx, email)
    return true
  }

  /**
   * The notice for a recipient whose row the caller already read (the reminder scan reads them with its
   * loans and queues a batch at once), or null when they do not want this kind or have no verified address.
   */
  function emailFor<
    U extends Pick<UserRow, 'id' | 'email' | 'emailVerified'> &
      Partial<Record<(typeof COLUMN)[NoticeKind], boolean>>,
  >(
    user: U,
    kind: NoticeKind,
    render: (recipient: U, unsubscribeUrl: string) => RenderedEmail,
  ): OutgoingEmail | null {
    if (!user.emailVerified || user[COLUMN[kind]] !== true) return null
    const token = ctx.unsubscribeTokens.issue(user.id, kind)
    const email = render(user, pageUrl(token))
    return { to: user.email, email: { ...email, listUnsubscribe: oneClickUrl(token) } }
  }

  /** No sign-in: the signed token names the user and the kind. */
  async function unsubscribe(token: string): Promise<{ message: string }> {
    const claim = ctx.unsubscribeTokens.verify(token)
    if (!claim) throw new AppError('VALIDATION_ERROR', MESSAGES.unsubscribeLinkInvalid)
    await repo.updateUser(ctx.db, claim.userId, { [COLUMN[claim.kind]]: false })
    ctx.log.info({ userId: claim.userId, kind: claim.kind }, 'notice unsubscribed')
    return { message: MESSAGES.unsubscribed }
  }

  return { queue, emailFor, unsubscribe }
}

export type NoticesService = ReturnType<typeof createNoticesService>

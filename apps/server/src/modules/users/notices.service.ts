import { MESSAGES } from '@circles/shared'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import { AppError } from '../../lib/errors'
import { type OutgoingEmail, enqueueEmail } from '../../lib/mailer/outbox'
import type { RenderedEmail } from '../../lib/mailer/templates'
import { type PushNotice, enqueuePush } from '../../lib/push/queue'
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

/** The kinds that also go out as push notices (issue 27, docs/decisions/0053), and their switches. */
const PUSH_COLUMN = {
  handoverRequests: 'pushHandoverRequests',
  handoverAnswers: 'pushHandoverAnswers',
  invitations: 'pushInvitations',
  loanReminders: 'pushLoanReminders',
} as const satisfies Partial<Record<NoticeKind, keyof UserRow>>
type PushColumn = (typeof PUSH_COLUMN)[keyof typeof PUSH_COLUMN]

export interface OutgoingPush {
  userId: string
  kind: NoticeKind
  notice: PushNotice
}

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
    if (!user) return false
    const push = pushFor(user, kind, render)
    // The devices' notices ride the same transaction; the caller's nudge after commit wakes both workers.
    if (push) await enqueuePush(tx, push.userId, push.kind, push.notice)
    const email = emailFor(user, kind, render)
    if (!email) return !!push
    await enqueueEmail(tx, email)
    return true
  }

  /** Same-origin path of a notice's page; a link that carries a token (an invitation's) opens the dashboard. */
  function pathOf(link: string | undefined): string {
    if (!link?.startsWith(`${base}/`)) return '/dashboard'
    const url = new URL(link)
    return url.search ? '/dashboard' : url.pathname
  }

  /**
   * The push notice for a recipient who wants this kind on their devices (the email's short form in their
   * language), or null. Whether they have a device is the queue's business: it writes one row per device.
   */
  function pushFor<U extends Pick<UserRow, 'id' | 'deletedAt'> & Partial<Record<PushColumn, boolean>>>(
    user: U,
    kind: NoticeKind,
    render: (recipient: U, unsubscribeUrl: string) => RenderedEmail,
  ): OutgoingPush | null {
    const column = (PUSH_COLUMN as Partial<Record<NoticeKind, PushColumn>>)[kind]
    if (!column || user.deletedAt || user[column] !== true) return null
    const short = render(user, `${base}/profile`).short
    if (!short) return null
    const url = pathOf(short.link)
    return {
      userId: user.id,
      kind,
      notice: { title: short.title, body: short.body, url, tag: `${kind}:${url}` },
    }
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

  return { queue, emailFor, pushFor, unsubscribe }
}

export type NoticesService = ReturnType<typeof createNoticesService>

import {
  LIMITS,
  MESSAGES,
  PLANS,
  type Language,
  type TAcceptInvitationResponse,
  type TInvitation,
  type TInvitationPreview,
  type TUser,
} from '@circles/shared'
import type { AppContext, InvitationLookup } from '../../context'
import type { Executor } from '../../db/client'
import { AppError, notFound } from '../../lib/errors'
import { enqueueEmail } from '../../lib/mailer/outbox'
import { emails } from '../../lib/mailer/templates'
import { hashToken, randomToken } from '../../lib/tokens'
import type { ActivitiesService } from '../activities/activities.service'
import type { NoticesService } from '../users/notices.service'
import { requireAdmin } from '../membership/access'
import { invitationStatus, toInvitation } from './circle-view'
import * as circles from './circles.repository'
import * as repo from './invitations.repository'

type InvitationType = 'email' | 'qr'

const invitationNotFound = () => new AppError('NOT_FOUND', MESSAGES.invitationNotFound)
const invitationExpired = () => new AppError('INVITATION_EXPIRED', MESSAGES.invitationExpired)

export function createInvitationsService(
  ctx: AppContext,
  activities: Pick<ActivitiesService, 'recordInvitation' | 'publish'>,
  notices: Pick<NoticesService, 'queue'>,
) {
  const newExpiry = () => new Date(Date.now() + LIMITS.invitationTtlMs)
  const joinLink = (token: string) => `${ctx.config.publicUrl}/join?token=${token}`

  async function limitInvitationEmails(actor: TUser) {
    await ctx.rateLimits.consume([['invitationEmailsPerAccount', actor.id]], MESSAGES.tooManyRequests)
  }

  async function assertRoomFor(tx: Executor, circleId: string) {
    if (!ctx.config.planLimits) return
    if ((await circles.countMembers(tx, circleId)) >= PLANS.personal.membersPerCircle) {
      throw new AppError('PLAN_LIMIT_REACHED', MESSAGES.memberLimitReached)
    }
  }

  /** The invitee's own language when they have an account, else the inviting admin's. */
  async function queueInvitationEmail(
    tx: Executor,
    to: string,
    data: { inviter: TUser; circleName: string; token: string },
  ) {
    const language: Language = (await repo.findLanguageByEmail(tx, to)) ?? data.inviter.language
    await enqueueEmail(tx, {
      to,
      email: emails.circleInvitation(language, {
        inviterName: data.inviter.name,
        circleName: data.circleName,
        link: joinLink(data.token),
      }),
    })
  }

  /**
   * Both kinds start the same way; one live invitation per address and circle. Access is checked under
   * the circle's lock, and only an admin's email invitations count against the rate limit.
   */
  async function createInvitation(actor: TUser, circleId: string, email: string, type: InvitationType) {
    const token = randomToken()
    const { row: invitation, feed } = await ctx.db.transaction(async (tx) => {
      await circles.lockCircle(tx, circleId)
      const { circle } = await requireAdmin(tx, circleId, actor)
      if (type === 'email') await limitInvitationEmails(actor)
      if (await circles.isMemberByEmail(tx, circleId, email)) {
        throw new AppError('ALREADY_MEMBER', MESSAGES.alreadyMember)
      }
      await assertRoomFor(tx, circleId)
      await repo.cancelPendingInvitationsFor(tx, circleId, email)
      const row = await repo.insertInvitation(tx, {
        circleId,
        email,
        type,
        tokenHash: hashToken(token),
        invitedById: actor.id,
        expiresAt: newExpiry(),
      })
      if (type === 'email') {
        await queueInvitationEmail(tx, email, { inviter: actor, circleName: circle.name, token })
      }
      const inviteeId = await repo.findUserIdByEmail(tx, email)
      // A QR invitation sends no email of its own; an invitee with an account gets it as a notice.
      if (type === 'qr' && inviteeId) {
        await notices.queue(tx, inviteeId, 'invitations', (to, unsubscribeUrl) =>
          emails.invitationNotice(to.language, {
            inviterName: actor.name,
            circleName: circle.name,
            link: joinLink(token),
            unsubscribeUrl,
          }),
        )
      }
      const feed = inviteeId
        ? await activities.recordInvitation(tx, inviteeId, {
            circle: { id: circleId, name: circle.name },
            admin: { name: actor.name },
          })
        : []
      return { row, feed }
    })
    activities.publish(feed)
    ctx.nudgeMail()
    ctx.log.info({ circleId, invitationId: invitation.id, type, by: actor.id }, 'invitation created')
    return { invitation: toInvitation(invitation), token }
  }

  async function inviteByEmail(actor: TUser, circleId: string, email: string): Promise<TInvitation> {
    const { invitation } = await createInvitation(actor, circleId, email, 'email')
    ctx.nudgeMail()
    return invitation
  }

  /** Bound to an email like any invitation, but nothing is sent: the admin shows the QR code. */
  async function createQrInvitation(actor: TUser, circleId: string, email: string) {
    const { invitation, token } = await createInvitation(actor, circleId, email, 'qr')
    return { ...invitation, token }
  }

  async function listPending(actor: TUser, circleId: string): Promise<TInvitation[]> {
    await requireAdmin(ctx.db, circleId, actor)
    return (await repo.listPendingInvitations(ctx.db, circleId)).map(toInvitation)
  }

  /**
   * A fresh token and a fresh week, sent by email (the old link stops working). The update is
   * conditional on the invitation still being pending, so an invitation accepted or cancelled
   * meanwhile is neither re-tokened nor emailed.
   */
  async function resend(actor: TUser, circleId: string, invitationId: string): Promise<TInvitation> {
    const token = randomToken()
    const row = await ctx.db.transaction(async (tx) => {
      const { circle } = await requireAdmin(tx, circleId, actor)
      await limitInvitationEmails(actor)
      const current = await repo.findInvitationInCircle(tx, circleId, invitationId)
      if (current?.status !== 'PENDING') throw notFound()
      const updated = await repo.updatePendingInvitation(tx, current.id, {
        tokenHash: hashToken(token),
        expiresAt: newExpiry(),
      })
      if (!updated) throw notFound()
      await queueInvitationEmail(tx, updated.email, { inviter: actor, circleName: circle.name, token })
      return updated
    })
    ctx.nudgeMail()
    ctx.log.info({ circleId, invitationId, by: actor.id }, 'invitation resent')
    return toInvitation(row)
  }

  /** Only a pending invitation can be cancelled; one accepted meanwhile stays accepted. */
  async function cancel(actor: TUser, circleId: string, invitationId: string): Promise<void> {
    await ctx.db.transaction(async (tx) => {
      await requireAdmin(tx, circleId, actor)
      const current = await repo.findInvitationInCircle(tx, circleId, invitationId)
      if (current?.status !== 'PENDING') throw notFound()
      const cancelled = await repo.updatePendingInvitation(tx, current.id, { status: 'CANCELLED' })
      if (!cancelled) throw notFound()
    })
    ctx.log.info({ circleId, invitationId, by: actor.id }, 'invitation cancelled')
  }

  /** What the invitee sees before accepting; the token itself is the credential, no session needed. */
  async function verify(rawToken: string): Promise<TInvitationPreview> {
    const found = await repo.findInvitationByTokenHash(ctx.db, hashToken(rawToken))
    if (!found || found.invitation.status === 'CANCELLED') throw invitationNotFound()
    const status = invitationStatus(found.invitation)
    if (status === 'EXPIRED') throw invitationExpired()
    return {
      ...toInvitation(found.invitation),
      circleId: found.invitation.circleId,
      circleName: found.circleName,
      // A deleted inviter's name is '' (docs/decisions/0035): the invitee reads 'Administrator'.
      name: found.inviterName || null,
    }
  }

  /**
   * Adds the membership once. Any signed-in user holding the token may accept (the web app warns when
   * the emails differ); a repeat by a member answers alreadyMember instead of failing.
   */
  async function accept(actor: TUser, rawToken: string): Promise<TAcceptInvitationResponse> {
    const result = await ctx.db.transaction(async (tx) => {
      const found = await repo.findInvitationByTokenHash(tx, hashToken(rawToken), true)
      if (!found || found.invitation.status === 'CANCELLED') throw invitationNotFound()
      const { invitation } = found
      await circles.lockCircle(tx, invitation.circleId)
      const isMember = Boolean(await circles.findMembership(tx, invitation.circleId, actor.id))
      const circle = { id: invitation.circleId, name: found.circleName }

      if (invitation.status === 'ACCEPTED') {
        if (isMember) return { circle, alreadyMember: true, joined: false }
        throw new AppError('INVITATION_ACCEPTED', MESSAGES.invitationAlreadyAccepted)
      }
      if (invitationStatus(invitation) === 'EXPIRED') throw invitationExpired()
      if (!isMember) {
        await assertRoomFor(tx, invitation.circleId)
        await circles.addMember(tx, invitation.circleId, actor.id)
      }
      // The row is locked above, so this holds; the condition keeps it so should the lock ever go.
      const accepted = await repo.updatePendingInvitation(tx, invitation.id, {
        status: 'ACCEPTED',
        acceptedAt: new Date(),
        acceptedById: actor.id,
      })
      if (!accepted) throw invitationNotFound()
      return { circle, alreadyMember: isMember, joined: !isMember }
    })
    if (result.joined) {
      ctx.log.info({ circleId: result.circle.id, userId: actor.id }, 'invitation accepted')
      ctx.events.publish('membership.started', { circleId: result.circle.id, userId: actor.id })
      ctx.events.publish('circle.updated', { circleId: result.circle.id })
    }
    return {
      success: true,
      circle: result.circle,
      alreadyMember: result.alreadyMember,
      message: result.alreadyMember ? MESSAGES.alreadyMemberWelcome : MESSAGES.joinedCircle,
    }
  }

  return { inviteByEmail, createQrInvitation, listPending, resend, cancel, verify, accept }
}

export type InvitationsService = ReturnType<typeof createInvitationsService>

/** Registration asks this: the email a live invitation token was sent to (spec 000 §4). */
export const invitationLookup: InvitationLookup = {
  async findPendingEmail(rawToken, tx) {
    const found = await repo.findInvitationByTokenHash(tx, hashToken(rawToken))
    if (!found || invitationStatus(found.invitation) !== 'PENDING') return null
    return found.invitation.email
  },
}

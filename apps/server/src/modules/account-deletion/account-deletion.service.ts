import { randomUUID } from 'node:crypto'
import {
  MESSAGES,
  type TDeleteAccountRequest,
  type TDeletionCircle,
  type TDeletionPreview,
  type TUser,
} from '@circles/shared'
import type { AuthenticationResponseJSON } from '@simplewebauthn/server'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import { AppError, unauthorized } from '../../lib/errors'
import { verifyPassword } from '../../lib/passwords'
import type { FileStore } from '../../lib/storage'
import type { ActivitiesService } from '../activities/activities.service'
import type { CirclesService } from '../circles/circles.service'
import { removeAvatar } from '../avatars/avatars.service'
import { storedNames } from '../../lib/images'
import { deleteCircleLedger, erasePersonFromLedger, eraseWitnessKeys } from '../ledger/ledger-erasure'
import type { LoansService } from '../loans/loans.service'
import type { PushService } from '../push/push.service'
import type { WebauthnService } from '../webauthn/webauthn.service'
import * as repo from './account-deletion.repository'

const wrongPassword = () => new AppError('FORBIDDEN', MESSAGES.deleteAccountWrongPassword)
const passkeyFailed = () => new AppError('FORBIDDEN', MESSAGES.deleteAccountPasskeyFailed)

/** A deleted account's address: unique, and saying nothing of the person (docs/decisions/0035). */
export const placeholderEmail = () => `deleted-${randomUUID()}@deleted.invalid`

const picturesOf = (rows: { imageId: string | null; imageType: string | null }[]) =>
  rows.flatMap((row) =>
    row.imageId && row.imageType ? storedNames(row.imageId, row.imageType as 'jpg' | 'png' | 'webp') : [],
  )

/**
 * "Delete my account" (issue 24, GDPR Art. 17; docs/decisions/0035). The preview says what the deletion
 * would do; the deletion checks the password (counted like sign-in guessing) or a fresh passkey
 * assertion, then does everything in one transaction and announces it after the commit.
 */
export function createAccountDeletionService(
  ctx: AppContext,
  deps: {
    store: FileStore
    circles: Pick<CirclesService, 'departForDeletion'>
    activities: Pick<ActivitiesService, 'eraseNameSnapshots'>
    webauthn: Pick<WebauthnService, 'reauthVerify'>
    /** Issue 26: the messages of their requests for a later return date go too. */
    loans: Pick<LoansService, 'eraseTextsOf'>
    /** Issue 27: every device's push subscription, and the notices queued for them. */
    push: Pick<PushService, 'removeAllOf'>
  },
) {
  async function previewIn(db: Executor, actor: TUser): Promise<TDeletionPreview> {
    const [circles, held, pendingHandovers, passkeys] = await Promise.all([
      repo.circlesOf(db, actor.id),
      repo.itemsHeldBy(db, actor.id),
      repo.countPendingHandovers(db, actor.id),
      repo.countPasskeys(db, actor.id),
    ])
    const names = await repo.namesOf(
      db,
      circles.flatMap((c) => [c.adminId, c.successorId ?? c.adminId]),
    )
    const ref = (id: string) => ({ id, name: names.get(id) ?? '' })
    const closing = new Set<string>()
    const adminAfter = new Map<string, string>()
    const entries: TDeletionCircle[] = circles.map((c) => {
      if (c.memberCount <= 1) {
        closing.add(c.id)
        return { id: c.id, name: c.name, outcome: 'CLOSES', successor: null }
      }
      if (c.adminId === actor.id) {
        adminAfter.set(c.id, c.successorId!)
        return { id: c.id, name: c.name, outcome: 'ADMIN_PASSES', successor: ref(c.successorId!) }
      }
      adminAfter.set(c.id, c.adminId)
      return { id: c.id, name: c.name, outcome: 'LEAVES', successor: null }
    })
    const itemsDeleted: TDeletionPreview['itemsDeleted'] = []
    const itemsToAdmin: TDeletionPreview['itemsToAdmin'] = []
    for (const item of held) {
      const admin = adminAfter.get(item.circleId)
      const entry = { id: item.id, name: item.name, circleId: item.circleId }
      if (item.ownership === 'PARTIAL' && admin && !closing.has(item.circleId)) {
        itemsToAdmin.push({ ...entry, admin: ref(admin) })
      } else {
        itemsDeleted.push(entry)
      }
    }
    return { circles: entries, itemsDeleted, itemsToAdmin, pendingHandovers, hasPasskeys: passkeys > 0 }
  }

  function preview(actor: TUser): Promise<TDeletionPreview> {
    return previewIn(ctx.db, actor)
  }

  /** The password (guessing counted as at sign-in) or a passkey assertion of the actor's. */
  async function confirmIdentity(actor: TUser, input: TDeleteAccountRequest, ip: string) {
    if (input.password) {
      const attempt = await ctx.rateLimits.login(actor.email, ip)
      const row = await repo.lockUser(ctx.db, actor.id)
      if (!row || row.deletedAt) throw unauthorized()
      if (!(await verifyPassword(row.passwordHash, input.password))) throw wrongPassword()
      await attempt.succeeded()
      return
    }
    const attempt = await ctx.rateLimits.consume([['loginPerAddress', ip]], MESSAGES.tooManyRequests)
    const ok = await deps.webauthn.reauthVerify(
      actor,
      input.credential as unknown as AuthenticationResponseJSON,
    )
    if (!ok) throw passkeyFailed()
    await attempt.refund()
  }

  async function deleteAccount(actor: TUser, input: TDeleteAccountRequest, ip: string): Promise<void> {
    await confirmIdentity(actor, input, ip)
    const email = actor.email
    const result = await ctx.db.transaction(async (tx) => {
      const user = await repo.lockUser(tx, actor.id)
      if (!user || user.deletedAt) throw unauthorized()
      const circles = await repo.circlesOf(tx, user.id)
      const departed = await repo.departedCircleIds(tx, user.id)
      const pictures: string[] = []
      const announcements: (() => void)[] = []
      const closed: string[] = []
      for (const circle of circles) {
        if (circle.memberCount <= 1) {
          pictures.push(...picturesOf(await repo.picturesOfCircle(tx, circle.id)))
          await deleteCircleLedger(tx, circle.id)
          await repo.deleteCircle(tx, circle.id)
          closed.push(circle.id)
        } else {
          announcements.push(await deps.circles.departForDeletion(tx, circle.id, user.id))
        }
      }
      // Names in the feed, while handovers and blocks still say who was who.
      const knownNames = [user.name, ...(await repo.ledgerNamesOf(tx, user.id))]
      const scope = [...new Set([...circles.map((c) => c.id), ...departed])].filter(
        (id) => !closed.includes(id),
      )
      await deps.activities.eraseNameSnapshots(tx, user.id, scope, knownNames)
      await repo.eraseHandoverTexts(tx, user.id)
      await deps.loans.eraseTextsOf(tx, user.id)
      const held = await repo.itemsHeldBy(tx, user.id)
      pictures.push(...picturesOf(held))
      await repo.deleteItems(
        tx,
        held.map((item) => item.id),
      )
      await repo.deletePersonalRows(tx, { id: user.id, email: user.email, name: user.name })
      await deps.push.removeAllOf(tx, user.id)
      await eraseWitnessKeys(tx, user.id)
      // The avatar's file goes after the commit with the pictures (docs/decisions/0037).
      pictures.push(...(await removeAvatar(tx, user.id)))
      const erasedBlocks = await erasePersonFromLedger(tx, user.id)
      await repo.writeTombstone(tx, user.id, placeholderEmail())
      return {
        pictures,
        announcements,
        itemsDeleted: held.map((item) => ({ id: item.id, circleId: item.circleId })),
        counts: {
          circlesLeft: announcements.length,
          circlesClosed: closed.length,
          itemsDeleted: held.length,
          erasedBlocks,
        },
      }
    })
    ctx.log.info({ userId: actor.id, ...result.counts }, 'account deleted')
    ctx.events.publish('sessions.ended', { userId: actor.id })
    for (const announce of result.announcements) announce()
    for (const item of result.itemsDeleted) {
      ctx.events.publish('item.deleted', { circleId: item.circleId, itemId: item.id })
    }
    await Promise.all([
      result.pictures.length > 0
        ? deps.store
            .remove(result.pictures)
            .catch((error) => ctx.log.warn({ err: error }, 'could not remove a deleted account’s pictures'))
        : undefined,
      ctx.rateLimits
        .forget([email, actor.id, `${email}\n${ip}`])
        .catch((error) => ctx.log.warn({ err: error }, 'could not forget a deleted account’s rate limits')),
    ])
  }

  return { preview, deleteAccount }
}

export type AccountDeletionService = ReturnType<typeof createAccountDeletionService>

import {
  MESSAGES,
  PLANS,
  type TCircle,
  type TCircleDetail,
  type TCircleInput,
  type TCircleListEntry,
  type TUser,
} from '@circles/shared'
import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import { users } from '../../db/schema'
import { AppError, notFound } from '../../lib/errors'
import type { ActivitiesService } from '../activities/activities.service'
import type { BorrowRequestsService } from '../borrow-requests/borrow-requests.service'
import type { HandoversService } from '../handovers/handovers.service'
import type { ItemsService } from '../items/items.service'
import type { CircleLoans } from '../loans/loans.service'
import { requireAdmin, requireMember } from '../membership/access'
import { toCircle, toCircleDetail, toListEntry } from './circle-view'
import * as repo from './circles.repository'
import type { DepartureReason } from './circles.repository'

/** What the circles module needs of the items module (its service, never its repository). */
export interface CircleItems {
  circleItems(db: Executor, circleId: string): Promise<TCircleDetail['items']>
  releaseHeldBy: ItemsService['releaseHeldBy']
}

/** What the circles module needs of the handovers module. */
export type CircleHandovers = Pick<HandoversService, 'withdrawInvolving' | 'announceWithdrawn'>

/** What the circles module needs of the asks to borrow (issue 26): a departure closes the open ones. */
export type CircleBorrowRequests = Pick<
  BorrowRequestsService,
  'closeInvolving' | 'offerFreed' | 'announceClosed'
>

export function createCirclesService(
  ctx: AppContext,
  items: CircleItems,
  handovers: CircleHandovers,
  activities: Pick<ActivitiesService, 'publish' | 'recordRemoval'>,
  loans: CircleLoans,
  borrowRequests?: CircleBorrowRequests,
) {
  async function circleView(db: Executor, id: string): Promise<TCircle> {
    const circle = await repo.findCircle(db, id)
    if (!circle) throw notFound()
    return toCircle(circle)
  }

  async function list(actor: TUser): Promise<TCircleListEntry[]> {
    const rows = await repo.listMembershipsOfUser(ctx.db, actor.id)
    return rows.map(toListEntry)
  }

  async function get(actor: TUser, id: string): Promise<TCircleDetail> {
    const { circle } = await requireMember(ctx.db, id, actor)
    const [members, circleItems] = await Promise.all([
      repo.listMembers(ctx.db, id),
      items.circleItems(ctx.db, id),
    ])
    return toCircleDetail(circle, members, circleItems)
  }

  async function create(actor: TUser, input: TCircleInput): Promise<TCircle> {
    const circle = await ctx.db.transaction(async (tx) => {
      if (ctx.config.planLimits) {
        // Serialises this user's creations, so two requests at once cannot both pass the count.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, actor.id)).for('update')
        const owned = await repo.countCirclesAdministeredBy(tx, actor.id)
        if (owned >= PLANS.personal.circles) {
          throw new AppError('PLAN_LIMIT_REACHED', MESSAGES.circleLimitReached)
        }
      }
      const row = await repo.insertCircle(tx, {
        name: input.name,
        description: input.description ?? null,
        adminId: actor.id,
      })
      await repo.addMember(tx, row.id, actor.id)
      return circleView(tx, row.id)
    })
    ctx.log.info({ circleId: circle.id, userId: actor.id }, 'circle created')
    ctx.events.publish('membership.started', { circleId: circle.id, userId: actor.id })
    return circle
  }

  async function update(actor: TUser, id: string, input: TCircleInput): Promise<TCircle> {
    await requireAdmin(ctx.db, id, actor)
    await repo.updateCircle(ctx.db, id, { name: input.name, description: input.description ?? null })
    ctx.events.publish('circle.updated', { circleId: id })
    return circleView(ctx.db, id)
  }

  /**
   * Inside the departure's transaction: why the member is out is recorded (so their pages can say it),
   * open requests involving them go, partial items go back, each block saying why (docs/decisions/0027).
   */
  async function release(
    tx: Executor,
    circleId: string,
    userId: string,
    adminId: string,
    reason: DepartureReason,
  ) {
    await repo.recordDeparture(tx, circleId, userId, reason)
    const withdrawn = await handovers.withdrawInvolving(tx, circleId, userId)
    const closed = (await borrowRequests?.closeInvolving(tx, circleId, userId)) ?? []
    // Issue 26: loans they borrowed or lent here are recalled (docs/decisions/0047).
    const recalled = await loans.recallInvolving(tx, circleId, userId, adminId, reason)
    const { moved, notices } = await items.releaseHeldBy(tx, circleId, userId, adminId, reason)
    // An item that was offered to the leaver goes to the next in line, as on a return (ADR 0048).
    const offered = (await borrowRequests?.offerFreed(tx, closed)) ?? (() => {})
    return { withdrawn, closed, moved, notices, recalled, offered }
  }

  /** After the departure commits: the member's sockets leave the room, everyone's views refresh. */
  function announceDeparture(
    circleId: string,
    userId: string,
    released: Awaited<ReturnType<typeof release>>,
  ) {
    ctx.events.publish('membership.ended', { circleId, userId })
    ctx.events.publish('circle.updated', { circleId })
    handovers.announceWithdrawn(released.withdrawn)
    borrowRequests?.announceClosed(released.closed)
    released.offered()
    released.recalled()
    for (const item of released.moved) ctx.events.publish('item.updated', { circleId, itemId: item.id })
    activities.publish(released.notices)
  }

  /** Admin only; never the admin themself. What happens to the member's items is the items module's. */
  async function removeMember(actor: TUser, id: string, userId: string): Promise<void> {
    const released = await ctx.db.transaction(async (tx) => {
      // Locked first, so a concurrent transfer or removal cannot slip between the check and the change.
      await repo.lockCircle(tx, id)
      await requireAdmin(tx, id, actor)
      if (userId === actor.id) throw new AppError('CONFLICT', MESSAGES.cannotRemoveSelf)
      if (!(await repo.removeMember(tx, id, userId))) throw new AppError('NOT_FOUND', MESSAGES.notAMember)
      const released = await release(tx, id, userId, actor.id, 'REMOVED')
      const circle = await circleView(tx, id)
      const removal = await activities.recordRemoval(tx, userId, {
        circle: { id, name: circle.name },
        admin: { name: actor.name },
      })
      return { ...released, notices: [...released.notices, ...removal] }
    })
    ctx.log.info({ circleId: id, userId, by: actor.id }, 'member removed')
    announceDeparture(id, userId, released)
  }

  /** The admin hands the circle to another member and becomes a member. */
  async function transferOwnership(actor: TUser, id: string, userId: string): Promise<TCircle> {
    const circle = await ctx.db.transaction(async (tx) => {
      await repo.lockCircle(tx, id)
      await requireAdmin(tx, id, actor)
      if (userId === actor.id) throw new AppError('CONFLICT', MESSAGES.alreadyAdmin)
      if (!(await repo.findMembership(tx, id, userId))) throw new AppError('NOT_FOUND', MESSAGES.notAMember)
      await repo.updateCircle(tx, id, { adminId: userId })
      return circleView(tx, id)
    })
    ctx.log.info({ circleId: id, from: actor.id, to: userId }, 'circle ownership transferred')
    ctx.events.publish('circle.updated', { circleId: id })
    return circle
  }

  /** A member leaves; the admin must hand the circle over first, so a circle always has one. */
  async function leave(actor: TUser, id: string): Promise<void> {
    const released = await ctx.db.transaction(async (tx) => {
      await repo.lockCircle(tx, id)
      const { isAdmin, circle } = await requireMember(tx, id, actor)
      if (isAdmin) throw new AppError('CONFLICT', MESSAGES.adminMustTransfer)
      await repo.removeMember(tx, id, actor.id)
      return release(tx, id, actor.id, circle.adminId, 'LEFT')
    })
    ctx.log.info({ circleId: id, userId: actor.id }, 'member left circle')
    announceDeparture(id, actor.id, released)
  }

  /**
   * Account deletion (docs/decisions/0035), inside its transaction: the person leaves circle `id` as in
   * `leave` (departure record, pending requests withdrawn, partial items to the admin with the admin's
   * notice). When they are its admin, the longest-standing other member becomes admin first. A circle
   * they are alone in is the caller's to close. Returns what to announce once the transaction commits.
   */
  async function departForDeletion(tx: Executor, id: string, userId: string) {
    const circle = await repo.lockCircle(tx, id)
    if (!circle) throw notFound()
    let adminId = circle.adminId
    if (adminId === userId) {
      const successor = await repo.longestStandingOtherMember(tx, id, userId)
      if (!successor) throw new AppError('CONFLICT', MESSAGES.adminMustTransfer)
      await repo.updateCircle(tx, id, { adminId: successor.userId })
      adminId = successor.userId
    }
    await repo.removeMember(tx, id, userId)
    const released = await release(tx, id, userId, adminId, 'LEFT')
    return () => announceDeparture(id, userId, released)
  }

  /** For the socket layer's join_circle: only members enter a circle's room. */
  async function isMember(userId: string, circleId: string): Promise<boolean> {
    return Boolean(await repo.findMembership(ctx.db, circleId, userId))
  }

  /** For the socket layer: the circles whose rooms a new socket enters. */
  function circleIdsOf(userId: string): Promise<string[]> {
    return repo.circleIdsOfUser(ctx.db, userId)
  }

  return {
    isMember,
    circleIdsOf,
    list,
    get,
    create,
    update,
    removeMember,
    transferOwnership,
    leave,
    departForDeletion,
  }
}

export type CirclesService = ReturnType<typeof createCirclesService>

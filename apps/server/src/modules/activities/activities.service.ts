import {
  LIMITS,
  type TActivity,
  type TDashboardStats,
  type THandoverStatus,
  type THandoverActivityData,
  type TInvitationActivityData,
  type TNewItemActivityData,
  type TRemovedActivityData,
  type TUser,
} from '@circles/shared'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import * as repo from './activities.repository'
import type { ActivityRow } from './activities.repository'

/** An activity and the one user whose feed it is in; what the socket layer sends after commit. */
export interface Notice {
  userId: string
  activity: TActivity
}

type HandoverActivityType = 'PENDING_HANDOVER' | 'CONFIRMED_HANDOVER' | 'AUTO_TRANSFER'

function handoverTitle(type: HandoverActivityType, d: THandoverActivityData): string {
  if (type === 'PENDING_HANDOVER') return `${d.sender.name} wants to hand you ${d.item.name}`
  if (type === 'CONFIRMED_HANDOVER') return `${d.item.name} went from ${d.sender.name} to ${d.receiver.name}`
  const why =
    d.reason === 'REMOVED'
      ? ` when the admin removed ${d.sender.name} from the circle`
      : d.reason === 'LEFT'
        ? ` when ${d.sender.name} left the circle`
        : ''
  return `${d.item.name} passed from ${d.sender.name} to ${d.receiver.name}${why}`
}

function toNotice(row: ActivityRow): Notice {
  return {
    userId: row.userId,
    activity: {
      id: row.id,
      type: row.type,
      timestamp: row.createdAt.toISOString(),
      title: row.title,
      data: row.data,
    } as TActivity,
  }
}

/**
 * The activity feed (spec 000 §3). Other services write entries inside their own transaction and
 * publish the returned notices after it commits (`ctx.events.publish('activity.created', …)`).
 */
export function createActivitiesService(ctx: AppContext) {
  /** A handover's entry for its parties: the receiver for a request, both for a confirmation. */
  async function recordHandover(
    tx: Executor,
    type: HandoverActivityType,
    recipients: string[],
    data: THandoverActivityData,
  ): Promise<Notice[]> {
    const title = handoverTitle(type, data)
    const rows = await repo.insertActivities(
      tx,
      [...new Set(recipients)].map((userId) => ({ userId, type, title, data })),
    )
    if (type !== 'PENDING_HANDOVER') return rows.map(toNotice)
    // A new request is open: the live entry says so, as the feed will until it is answered.
    return rows.map((row) => {
      const notice = toNotice(row)
      return { ...notice, activity: { ...notice.activity, handoverStatus: 'PENDING' } as TActivity }
    })
  }

  /** Every other member of the circle hears of a new item. */
  async function recordNewItem(tx: Executor, creatorId: string, data: TNewItemActivityData) {
    const title = `${data.owner.name} added ${data.name} to ${data.circle.name}`
    const rows = await repo.insertForMembers(tx, data.circle.id, creatorId, { type: 'NEW_ITEM', title, data })
    return rows.map(toNotice)
  }

  /** An invited person who already has an account finds the invitation in their feed too. */
  async function recordInvitation(tx: Executor, userId: string, data: TInvitationActivityData) {
    const title = `${data.admin?.name ?? 'Administrator'} invited you to ${data.circle.name}`
    const rows = await repo.insertActivities(tx, [{ userId, type: 'CIRCLE_INVITATION', title, data }])
    return rows.map(toNotice)
  }

  /** The member the admin removed finds it in their feed, and live (issue 23). */
  async function recordRemoval(tx: Executor, userId: string, data: TRemovedActivityData) {
    const title = `${data.admin.name} removed you from ${data.circle.name}`
    const rows = await repo.insertActivities(tx, [{ userId, type: 'REMOVED_FROM_CIRCLE', title, data }])
    return rows.map(toNotice)
  }

  function publish(notices: Notice[]) {
    if (notices.length > 0) ctx.events.publish('activity.created', { notices })
  }

  /** The feed; a request's entry says what became of it (docs/decisions/0029). */
  async function recent(actor: TUser): Promise<TActivity[]> {
    const rows = await repo.recentFor(ctx.db, actor.id, LIMITS.dashboardActivities)
    return rows.map((row) => {
      const { activity } = toNotice(row)
      if (activity.type !== 'PENDING_HANDOVER') return activity
      return { ...activity, handoverStatus: (row.handoverStatus ?? 'CANCELLED') as THandoverStatus }
    })
  }

  function stats(actor: TUser): Promise<TDashboardStats> {
    return repo.statsFor(ctx.db, actor.id)
  }

  return { recordHandover, recordNewItem, recordInvitation, recordRemoval, publish, recent, stats }
}

export type ActivitiesService = ReturnType<typeof createActivitiesService>

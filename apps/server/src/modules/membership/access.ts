import type { TUser } from '@circles/shared'
import type { Executor } from '../../db/client'
import { MESSAGES } from '@circles/shared'
import { AppError, forbidden, notFound } from '../../lib/errors'
import { type CircleWithCount, findCircle, findCircleForUser, findDeparture } from './membership.repository'

export interface CircleAccess {
  circle: CircleWithCount
  isAdmin: boolean
}

/**
 * A former member of the circle (they left, or the admin removed them) is told so, with the circle's
 * id and name: 403 NO_LONGER_MEMBER (docs/decisions/0027). They knew the circle; nobody else learns
 * anything from it. Answers nothing for anyone who never was a member.
 */
export async function noLongerMember(
  db: Executor,
  circle: { id: string; name: string },
  actor: TUser,
): Promise<AppError | undefined> {
  const departure = await findDeparture(db, circle.id, actor.id)
  if (!departure) return undefined
  const message = departure.reason === 'REMOVED' ? MESSAGES.removedFromCircle : MESSAGES.leftThisCircle
  return new AppError('NO_LONGER_MEMBER', message, {
    circle: { id: circle.id, name: circle.name },
    reason: departure.reason,
  })
}

/**
 * The one access check every circle service function calls first. A user who is not a member gets the
 * same 404 as for a circle that does not exist, so outsiders learn nothing, not even that it exists;
 * a former member learns why they are out (`noLongerMember`).
 */
export async function requireMember(db: Executor, circleId: string, actor: TUser): Promise<CircleAccess> {
  const found = await findCircleForUser(db, circleId, actor.id)
  if (!found) throw notFound()
  if (!found.isMember) throw (await noLongerMember(db, found.circle, actor)) ?? notFound()
  return { circle: found.circle, isAdmin: found.circle.adminId === actor.id }
}

/** Members who are not the admin get 403: they already know the circle exists. */
export async function requireAdmin(db: Executor, circleId: string, actor: TUser): Promise<CircleAccess> {
  const access = await requireMember(db, circleId, actor)
  if (!access.isAdmin) throw forbidden()
  return access
}

/** For a resource of circle `circleId` the actor cannot see: the former member's notice, if they were one. */
export async function explainOutsider(db: Executor, circleId: string, actor: TUser) {
  const circle = await findCircle(db, circleId)
  return circle ? noLongerMember(db, circle, actor) : undefined
}

import type { TUser } from '@circles/shared'
import type { Executor } from '../../db/client'
import { forbidden, notFound } from '../../lib/errors'
import { type CircleWithCount, findCircleForUser } from './circles.repository'

export interface CircleAccess {
  circle: CircleWithCount
  isAdmin: boolean
}

/**
 * The one access check every circle service function calls first. A user who is not a member gets the
 * same 404 as for a circle that does not exist, so outsiders learn nothing, not even that it exists.
 */
export async function requireMember(db: Executor, circleId: string, actor: TUser): Promise<CircleAccess> {
  const found = await findCircleForUser(db, circleId, actor.id)
  if (!found?.isMember) throw notFound()
  return { circle: found.circle, isAdmin: found.circle.adminId === actor.id }
}

/** Members who are not the admin get 403: they already know the circle exists. */
export async function requireAdmin(db: Executor, circleId: string, actor: TUser): Promise<CircleAccess> {
  const access = await requireMember(db, circleId, actor)
  if (!access.isAdmin) throw forbidden()
  return access
}

import type { TCircle, TCircleDetail, TCircleListEntry, TCircleRole, TInvitation } from '@circles/shared'
import { avatarUrl } from '../../lib/images'
import type { CircleWithCount, listMembers, listMembershipsOfUser } from './circles.repository'
import type { InvitationRow } from './invitations.repository'

/** The only circle, member and invitation shapes that leave the server. */
export function toCircle(row: CircleWithCount): TCircle {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    adminId: row.adminId,
    createdAt: row.createdAt.toISOString(),
    memberCount: row.memberCount,
  }
}

const roleOf = (adminId: string, userId: string): TCircleRole => (adminId === userId ? 'ADMIN' : 'MEMBER')

export function toListEntry(
  row: Awaited<ReturnType<typeof listMembershipsOfUser>>[number],
): TCircleListEntry {
  return {
    id: row.id,
    role: roleOf(row.circle.adminId, row.userId),
    joinedAt: row.joinedAt.toISOString(),
    circle: toCircle(row.circle),
  }
}

export function toCircleDetail(
  circle: CircleWithCount,
  members: Awaited<ReturnType<typeof listMembers>>,
  items: TCircleDetail['items'],
): TCircleDetail {
  return {
    ...toCircle(circle),
    items,
    users: members.map((m) => ({
      id: m.id,
      role: roleOf(circle.adminId, m.userId),
      userId: m.userId,
      joinedAt: m.joinedAt.toISOString(),
      user: { id: m.user.id, name: m.user.name, email: m.user.email, avatarUrl: avatarUrl(m.user.avatarId) },
    })),
  }
}

export function invitationStatus(row: InvitationRow, now = new Date()): TInvitation['status'] {
  return row.status === 'PENDING' && row.expiresAt <= now ? 'EXPIRED' : row.status
}

export function toInvitation(row: InvitationRow): TInvitation {
  return {
    id: row.id,
    email: row.email,
    type: row.type,
    status: invitationStatus(row),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  }
}

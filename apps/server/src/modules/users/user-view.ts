import type { TUser } from '@circles/shared'
import { avatarUrl } from '../../lib/images'
import type { UserRow } from './users.repository'

/** The only shape of a user that leaves the server: never the hash or the session version. */
export function toPublicUser(row: UserRow): TUser {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    emailVerified: row.emailVerified,
    language: row.language,
    createdAt: row.createdAt.toISOString(),
    avatarUrl: avatarUrl(row.avatarId),
    timeZone: row.timeZone,
  }
}

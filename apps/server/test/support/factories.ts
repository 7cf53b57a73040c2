import { randomBytes } from 'node:crypto'
import type { Language } from '@circles/shared'
import type { Database } from '../../src/db/client'
import { hashPassword } from '../../src/lib/passwords'
import { insertUser } from '../../src/modules/users/users.repository'

export const DEFAULT_PASSWORD = 'correct horse battery'

export function uniqueEmail(prefix = 'user') {
  return `${prefix}-${randomBytes(4).toString('hex')}@example.com`
}

/** A user straight in the database, verified unless told otherwise. */
export async function createUser(
  database: Database,
  opts: { name?: string; email?: string; password?: string; verified?: boolean; language?: Language } = {},
) {
  const password = opts.password ?? DEFAULT_PASSWORD
  const user = await insertUser(database.db, {
    name: opts.name ?? 'Test User',
    email: opts.email ?? uniqueEmail(),
    passwordHash: await hashPassword(password),
    emailVerified: opts.verified ?? true,
    language: opts.language ?? 'en',
  })
  if (!user) throw new Error('createUser: email taken')
  return { ...user, password }
}

import { MESSAGES, type TAvatarResponse, type TUser } from '@circles/shared'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import { notFound, unauthorized } from '../../lib/errors'
import type { FileStore, StoredFile } from '../../lib/storage'
import { avatarFileName, processAvatar } from '../../lib/images'
import { toPublicUser } from '../users/user-view'
import * as repo from './avatars.repository'

/**
 * For the account deletion, in its transaction: clears the person's avatar and answers the stored
 * file names, which the caller hands to `AvatarsService.discardFiles` after the commit (a file removed
 * before a rollback would leave an avatar that cannot be shown).
 */
export async function removeAvatar(tx: Executor, userId: string): Promise<string[]> {
  const current = await repo.lockAvatar(tx, userId)
  if (!current?.avatarId) return []
  await repo.setAvatar(tx, userId, null)
  return [avatarFileName(current.avatarId)]
}

/**
 * Each account's avatar picture (issue 24, docs/decisions/0037): one square WebP in the FileStore
 * under a random name, new on every upload, so its URL is its version. The person and the members of
 * a circle they share may fetch it; anyone else gets the 404 of a picture that does not exist.
 */
export function createAvatarsService(ctx: AppContext, store: FileStore) {
  /** Upload or replace: re-encoded first, stored, then set in one transaction; the old file goes after. */
  async function upload(actor: TUser, bytes: Buffer): Promise<TAvatarResponse> {
    await ctx.rateLimits.consume([['uploadsPerAccount', actor.id]], MESSAGES.tooManyRequests)
    const avatar = await processAvatar(bytes)
    await store.put(avatar.name, avatar)
    let previous: string | null = null
    let row
    try {
      row = await ctx.db.transaction(async (tx) => {
        const current = await repo.lockAvatar(tx, actor.id)
        if (!current) throw unauthorized()
        previous = current.avatarId
        return (await repo.setAvatar(tx, actor.id, avatar.id))!
      })
    } catch (error) {
      await discardFiles([avatar.name])
      throw error
    }
    await discardFiles(previous ? [avatarFileName(previous)] : [])
    ctx.log.info({ userId: actor.id }, 'avatar updated')
    return { user: toPublicUser(row), message: MESSAGES.avatarUpdated }
  }

  /** Remove: no avatar (again initials); removing none is no error. */
  async function remove(actor: TUser): Promise<TAvatarResponse> {
    let names: string[] = []
    const row = await ctx.db.transaction(async (tx) => {
      const current = await repo.lockAvatar(tx, actor.id)
      if (!current) throw unauthorized()
      if (current.avatarId) names = [avatarFileName(current.avatarId)]
      return (await repo.setAvatar(tx, actor.id, null))!
    })
    await discardFiles(names)
    if (names.length > 0) ctx.log.info({ userId: actor.id }, 'avatar removed')
    return { user: toPublicUser(row), message: MESSAGES.avatarRemoved }
  }

  /** Removes stored avatar files; a failure is logged, never thrown (the reference is already gone). */
  async function discardFiles(names: string[]): Promise<void> {
    if (names.length === 0) return
    await store
      .remove(names)
      .catch((error) => ctx.log.warn({ err: error }, 'could not remove old avatar files'))
  }

  /** GET /users/avatars/:file: the person themselves and members of a circle they share; else 404. */
  async function file(actor: TUser, fileName: string): Promise<StoredFile> {
    const avatarId = fileName.slice(0, -'.webp'.length)
    const ownerId = await repo.ownerOfAvatar(ctx.db, avatarId)
    if (!ownerId) throw notFound()
    if (ownerId !== actor.id && !(await repo.shareACircle(ctx.db, actor.id, ownerId))) throw notFound()
    const stored = await store.get(avatarFileName(avatarId))
    if (!stored) throw notFound()
    return stored
  }

  /** For the data export: the person's own avatar, or null. */
  async function read(userId: string): Promise<(StoredFile & { avatarId: string }) | null> {
    const avatarId = await repo.avatarIdOf(ctx.db, userId)
    if (!avatarId) return null
    const stored = await store.get(avatarFileName(avatarId))
    return stored ? { ...stored, avatarId } : null
  }

  return { upload, remove, removeAvatar, discardFiles, file, read }
}

export type AvatarsService = ReturnType<typeof createAvatarsService>

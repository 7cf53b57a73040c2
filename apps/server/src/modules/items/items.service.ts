import {
  MESSAGES,
  PLANS,
  type TCreateItemRequest,
  type TItem,
  type TItemSearchQuery,
  type TItemSearchResponse,
  type TUpdateItemRequest,
  type TUser,
} from '@circles/shared'
import { eq } from 'drizzle-orm'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import { users } from '../../db/schema'
import { AppError, notFound } from '../../lib/errors'
import type { FileStore, StoredFile } from '../../lib/storage'
import type { Notice } from '../../lib/events'
import type { ActivitiesService } from '../activities/activities.service'
import type { LedgerService } from '../ledger/ledger.service'
import type { TransferReason } from '@circles/ledger'
import { imageIdFromFile, imageUrls, processImage, storedNames } from '../../lib/images'
import * as repo from './items.repository'
import type { ItemViewRow } from './items.repository'

/** What an item says about lending (issue 26): the ACTIVE loan, if it is out. */
function lendingOf(row: ItemViewRow, now: Date): TItem['lending'] {
  const loan =
    row.loanId && row.loanBorrowerId && row.loanDueAt
      ? {
          id: row.loanId,
          borrower: { id: row.loanBorrowerId, name: row.loanBorrowerName ?? '' },
          dueAt: row.loanDueAt.toISOString(),
          overdue: row.loanDueAt.getTime() < now.getTime(),
          recalled: row.loanRecalledAt !== null,
        }
      : null
  return { loan, queueLength: Number(row.queueLength) }
}

/** Why an item that is out cannot be changed: its loan, for the page to say "On loan to Ben until …". */
export function onLoanError(row: ItemViewRow, now: Date): AppError {
  return new AppError('CONFLICT', MESSAGES.itemOnLoan, {
    loan: lendingOf(row, now).loan,
  })
}

/** The item as the API shows it; `now` (the app's clock) says whether its loan is overdue. */
function itemView(row: ItemViewRow, now: Date): TItem {
  const { item } = row
  return {
    id: item.id,
    name: item.name,
    code: item.code,
    description: item.description,
    ...imageUrls(item.imageId, item.imageType),
    circleId: item.circleId,
    ownerId: item.ownerId,
    ownership: item.ownership,
    createdAt: item.createdAt.toISOString(),
    updatedAt: item.updatedAt.toISOString(),
    owner: { name: row.ownerName },
    circle: { name: row.circleName, adminId: row.circleAdminId },
    ownerLeftCircle: !row.ownerIsMember,
    hasPendingHandovers: row.hasPendingHandover,
    locked: row.locked,
    // Issue 26: the ACTIVE loan from the loans table (joined in the item queries); the queue by h-borrow.
    lending: lendingOf(row, now),
  }
}

export function createItemsService(
  ctx: AppContext,
  store: FileStore,
  ledger: LedgerService,
  activities: ActivitiesService,
) {
  const toItem = (row: ItemViewRow) => itemView(row, ctx.clock())
  /**
   * The access check of every item call: members of the circle see its items, the holder always sees
   * theirs (also once isolated). Anyone else gets the same 404 as for an item that does not exist.
   */
  async function requireVisible(db: Executor, id: string, actor: TUser): Promise<ItemViewRow> {
    return requireVisibleRow(db, await repo.findItem(db, id), actor)
  }

  async function requireVisibleRow(db: Executor, row: ItemViewRow | undefined, actor: TUser) {
    if (!row) throw notFound()
    if (row.item.ownerId === actor.id) return row
    if (row.ownerIsMember && (await repo.isMember(db, row.item.circleId, actor.id))) return row
    throw notFound()
  }

  /** Edits and pictures: the holder or the circle's admin, still in the circle, item not locked or pending. */
  async function requireEditable(db: Executor, id: string, actor: TUser): Promise<ItemViewRow> {
    const row = await requireVisible(db, id, actor)
    if (!(await repo.isMember(db, row.item.circleId, actor.id))) {
      throw new AppError('FORBIDDEN', MESSAGES.itemNotInCircle)
    }
    if (row.item.ownerId !== actor.id && row.circleAdminId !== actor.id) {
      throw new AppError('FORBIDDEN', MESSAGES.itemEditForbidden)
    }
    if (row.locked) throw new AppError('CONFLICT', MESSAGES.itemLocked)
    // The true reason first: an item out on loan also has no pending handover but its return.
    if (row.loanId) throw onLoanError(row, ctx.clock())
    if (row.hasPendingHandover) throw new AppError('CONFLICT', MESSAGES.itemPendingHandover)
    return row
  }

  async function requireCircleMember(db: Executor, circleId: string, actor: TUser) {
    if (!(await repo.isMember(db, circleId, actor.id))) throw notFound()
  }

  async function listMine(actor: TUser): Promise<TItem[]> {
    return (await repo.listHeldBy(ctx.db, actor.id)).map(toItem)
  }

  async function listVisible(actor: TUser): Promise<TItem[]> {
    return (await repo.listVisibleTo(ctx.db, actor.id)).map(toItem)
  }

  async function listCircle(actor: TUser, circleId: string): Promise<TItem[]> {
    await requireCircleMember(ctx.db, circleId, actor)
    return (await repo.listInCircle(ctx.db, circleId)).map(toItem)
  }

  /** Up to 8 words of the search text, each to be found in the name or the description. */
  const MAX_WORDS = 8

  /**
   * GET /items and GET /items/circle/:id with their query (issue 23): the same items as the plain
   * lists, filtered, sorted and paged. A circle's list checks membership first (404 as before); the
   * circle filter of GET /items only narrows what the caller may see anyway.
   */
  async function search(
    actor: TUser,
    query: TItemSearchQuery,
    inCircle?: string,
  ): Promise<TItemSearchResponse> {
    if (inCircle) await requireCircleMember(ctx.db, inCircle, actor)
    const { rows, total } = await repo.searchItems(ctx.db, {
      viewerId: actor.id,
      inCircle,
      words: (query.q ?? '').split(/\s+/).filter(Boolean).slice(0, MAX_WORDS),
      circleId: query.circle,
      holderId: query.holder === 'me' ? actor.id : query.holder,
      state: query.state,
      sort: query.sort ?? 'newest',
      limit: query.limit,
      offset: query.offset ?? 0,
    })
    return { items: rows.map(toItem), total }
  }

  async function get(actor: TUser, id: string): Promise<TItem> {
    return toItem(await requireVisible(ctx.db, id, actor))
  }

  /**
   * Issue 27: the item a label's code names, for whoever may see it (`requireVisible`'s rule); anyone
   * else, and an unknown code, get the same 404.
   */
  async function getByCode(actor: TUser, code: string): Promise<TItem> {
    return toItem(await requireVisibleRow(ctx.db, await repo.findItemByCode(ctx.db, code), actor))
  }

  async function ownershipStatus(actor: TUser, id: string): Promise<{ hasFullOwnership: boolean }> {
    const { item } = await requireVisible(ctx.db, id, actor)
    return { hasFullOwnership: item.ownerId === actor.id && item.ownership === 'COMPLETE' }
  }

  async function create(actor: TUser, input: TCreateItemRequest): Promise<TItem> {
    // Nothing can have been uploaded for an item that does not exist yet: pictures come after.
    if (input.imageUrl) throw new AppError('VALIDATION_ERROR', MESSAGES.imageNotFromThisItem)
    const { item, notices } = await ctx.db.transaction(async (tx) => {
      await requireCircleMember(tx, input.circleId, actor)
      if (ctx.config.planLimits) {
        // Serialises this user's creations, so two requests at once cannot both pass the count.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, actor.id)).for('update')
        if ((await repo.countHeldBy(tx, actor.id)) >= PLANS.personal.items) {
          throw new AppError('PLAN_LIMIT_REACHED', MESSAGES.itemLimitReached)
        }
      }
      const row = await repo.insertItem(tx, {
        circleId: input.circleId,
        ownerId: actor.id,
        name: input.name,
        description: input.description,
      })
      const created = toItem((await repo.findItem(tx, row.id))!)
      const notices = await activities.recordNewItem(tx, actor.id, {
        id: created.id,
        name: created.name,
        owner: { name: created.owner.name },
        circle: { id: created.circleId, name: created.circle.name },
      })
      return { item: created, notices }
    })
    ctx.log.info({ itemId: item.id, circleId: item.circleId, userId: actor.id }, 'item created')
    ctx.events.publish('item.created', { circleId: item.circleId, itemId: item.id, userId: actor.id })
    activities.publish(notices)
    return item
  }

  async function update(actor: TUser, id: string, input: TUpdateItemRequest): Promise<TItem> {
    let removed: string[] = []
    const item = await ctx.db.transaction(async (tx) => {
      await repo.lockItem(tx, id)
      const { item: current } = await requireEditable(tx, id, actor)
      const picture: { imageId?: null; imageType?: null } = {}
      if (input.imageUrl === null && current.imageId && current.imageType) {
        picture.imageId = null
        picture.imageType = null
        removed = storedNames(current.imageId, current.imageType)
      } else if (input.imageUrl && imageIdFromFile(input.imageUrl) !== current.imageId) {
        throw new AppError('VALIDATION_ERROR', MESSAGES.imageNotFromThisItem)
      }
      await repo.updateItem(tx, id, { name: input.name, description: input.description, ...picture })
      return toItem((await repo.findItem(tx, id))!)
    })
    await removeQuietly(removed)
    ctx.events.publish('item.updated', { circleId: item.circleId, itemId: id })
    return item
  }

  async function remove(actor: TUser, id: string): Promise<void> {
    let removed: string[] = []
    let circleId = ''
    await ctx.db.transaction(async (tx) => {
      await repo.lockItem(tx, id)
      const row = await requireVisible(tx, id, actor)
      const { item, hasPendingHandover } = row
      if (item.ownerId !== actor.id || item.ownership !== 'COMPLETE') {
        throw new AppError('FORBIDDEN', MESSAGES.itemDeleteNeedsCompleteOwnership)
      }
      // Not while it is out on loan (issue 26): the borrower still has it.
      if (row.loanId) throw onLoanError(row, ctx.clock())
      if (hasPendingHandover) throw new AppError('CONFLICT', MESSAGES.itemPendingHandover)
      await repo.deleteItem(tx, id)
      circleId = item.circleId
      if (item.imageId && item.imageType) removed = storedNames(item.imageId, item.imageType)
    })
    await removeQuietly(removed)
    ctx.log.info({ itemId: id, userId: actor.id }, 'item deleted')
    ctx.events.publish('item.deleted', { circleId, itemId: id })
  }

  /**
   * A picture for an item: checked for access first, re-encoded (images.ts), stored under new random
   * names, then set on the item in one transaction; the previous picture's files go after the commit.
   */
  async function uploadImage(actor: TUser, itemId: string, upload: Buffer) {
    const { item: before } = await requireEditable(ctx.db, itemId, actor)
    await ctx.rateLimits.consume([['uploadsPerAccount', actor.id]], MESSAGES.tooManyRequests)
    const image = await processImage(upload)
    const written = [image.full.name, image.small.name]
    await store.put(image.full.name, image.full)
    try {
      await store.put(image.small.name, image.small)
      let previous: string[] = []
      await ctx.db.transaction(async (tx) => {
        await repo.lockItem(tx, itemId)
        const { item } = await requireEditable(tx, itemId, actor)
        if (item.imageId && item.imageType) previous = storedNames(item.imageId, item.imageType)
        await repo.updateItem(tx, itemId, { imageId: image.id, imageType: image.type })
      })
      await removeQuietly(previous)
    } catch (error) {
      await removeQuietly(written)
      throw error
    }
    ctx.events.publish('item.updated', { circleId: before.circleId, itemId })
    return imageUrls(image.id, image.type) as { imageUrl: string; thumbnailUrl: string }
  }

  /** A stored picture, for members of its item's circle and its holder only. */
  async function image(actor: TUser, file: string): Promise<StoredFile> {
    const imageId = imageIdFromFile(file)
    if (!imageId) throw notFound()
    const row = await requireVisibleRow(ctx.db, await repo.findItemByImage(ctx.db, imageId), actor)
    if (!row.item.imageType) throw notFound()
    const [full, small] = storedNames(imageId, row.item.imageType)
    if (file !== full && file !== small) throw notFound()
    const stored = await store.get(file)
    if (!stored) throw notFound()
    return stored
  }

  async function removeQuietly(names: string[]) {
    if (names.length === 0) return
    await store
      .remove(names)
      .catch((error) => ctx.log.warn({ err: error }, 'could not remove old picture files'))
  }

  /**
   * A member leaves or is removed (`reason`): each item they hold partially goes back, in the
   * departure's transaction, with an AUTO_TRANSFER block that says why. It goes to the admin (spec 001
   * §4), with complete ownership when the admin was its last holder with complete ownership (the
   * newest block that gave it, else its creator), partially otherwise. docs/decisions/0027. Complete items stay with the member, isolated from the circle. The ledger
   * head is locked before the items, as a confirmation locks them.
   */
  async function releaseHeldBy(
    tx: Executor,
    circleId: string,
    userId: string,
    adminId: string,
    reason: TransferReason,
  ): Promise<{ moved: { id: string; name: string }[]; notices: Notice[] }> {
    const log = await ledger.lockCircle(tx, circleId)
    const held = await repo.lockPartialItems(tx, circleId, userId)
    if (held.length === 0) return { moved: [], notices: [] }
    const from = { id: userId, name: await repo.userName(tx, userId) }
    const commitments = { requesterComment: null, receiverComment: null, secretMessage: null }
    const names = new Map<string, string>()
    const nameOf = async (id: string) => names.get(id) ?? names.set(id, await repo.userName(tx, id)).get(id)!
    const notices: Notice[] = []
    for (const item of held) {
      const to = { id: adminId, name: await nameOf(adminId) }
      const ownership =
        (await ledger.lastCompleteHolder(tx, circleId, item)) === adminId ? 'COMPLETE' : 'PARTIAL'
      await repo.setHolder(tx, item.id, { ownerId: to.id, ownership })
      const moved = { id: item.id, name: item.name }
      await log.append({
        kind: 'AUTO_TRANSFER',
        handoverId: null,
        item: moved,
        from,
        to,
        ownership,
        reason,
        commitments,
      })
      const data = {
        item: moved,
        sender: { name: from.name },
        receiver: { name: to.name },
        circleId,
        handoverId: null,
        reason,
      }
      notices.push(...(await activities.recordHandover(tx, 'AUTO_TRANSFER', [userId, to.id], data)))
    }
    return { moved: held.map(({ id, name }) => ({ id, name })), notices }
  }

  /**
   * For the handovers module, inside its transaction (docs/decisions/0046: only the items module writes
   * the items table): the item row locked for the rest of the transaction, then moved to its new holder.
   */
  function lockForHandover(tx: Executor, itemId: string) {
    return repo.lockItem(tx, itemId)
  }

  async function moveTo(
    tx: Executor,
    itemId: string,
    holder: { ownerId: string; ownership: 'COMPLETE' | 'PARTIAL' },
  ) {
    await repo.setHolder(tx, itemId, holder)
  }

  /** For the circle page: the circle's items, as the circle detail lists them. */
  async function circleItems(db: Executor, circleId: string) {
    const rows = await repo.listInCircle(db, circleId)
    return rows.map(toItem).map((item) => ({
      id: item.id,
      name: item.name,
      description: item.description,
      imageUrl: item.imageUrl,
      thumbnailUrl: item.thumbnailUrl,
      ownerId: item.ownerId,
      hasPendingHandover: item.hasPendingHandovers,
    }))
  }

  return {
    listMine,
    listVisible,
    listCircle,
    search,
    get,
    getByCode,
    ownershipStatus,
    create,
    update,
    remove,
    uploadImage,
    image,
    releaseHeldBy,
    circleItems,
    lockForHandover,
    moveTo,
  }
}

export type ItemsService = ReturnType<typeof createItemsService>

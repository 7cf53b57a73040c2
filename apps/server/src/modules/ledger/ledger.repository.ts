import { and, asc, desc, eq, gt, inArray, lt, or, sql, type SQL } from 'drizzle-orm'
import { TILE_WIDTH } from '@circles/ledger'
import type { Executor } from '../../db/client'
import {
  blocks,
  circleMembers,
  circles,
  handovers,
  items,
  ledgerCheckpoints,
  ledgerHeads,
  ledgerTiles,
} from '../../db/schema'

export type BlockRow = typeof blocks.$inferSelect
export type NewBlock = typeof blocks.$inferInsert

/**
 * Locks the circle's ledger head for the rest of the transaction (created on the circle's first
 * append) and returns it with the circle's current name. Every append of the circle waits here.
 */
export async function lockHead(tx: Executor, circleId: string) {
  const select = () =>
    tx
      .select({
        size: ledgerHeads.size,
        headHash: ledgerHeads.headHash,
        frontier: ledgerHeads.frontier,
        tiledSize: ledgerHeads.tiledSize,
        checkpoint: ledgerHeads.checkpoint,
        circleName: circles.name,
      })
      .from(ledgerHeads)
      .innerJoin(circles, eq(circles.id, ledgerHeads.circleId))
      .where(eq(ledgerHeads.circleId, circleId))
      .for('update', { of: ledgerHeads })
  let [head] = await select()
  if (!head) {
    // A circle's first append: two at once both insert; the second waits for the first and skips.
    await tx.insert(ledgerHeads).values({ circleId }).onConflictDoNothing()
    ;[head] = await select()
  }
  if (!head) throw new Error(`no circle ${circleId} for a ledger head`)
  return head
}

/**
 * The block, the head's new state, its leaf hash added to its level-0 tile (issue 29) and the new signed
 * checkpoint, in the caller's transaction. The tile's upsert rides on the head's update (one statement:
 * one round trip less for every append).
 */
export async function appendBlock(
  tx: Executor,
  block: NewBlock,
  tree: { frontier: string[]; checkpoint: string },
  leaf: Buffer,
): Promise<BlockRow> {
  const [row] = await tx.insert(blocks).values(block).returning()
  const size = block.height + 1
  await tx.execute(sql`
    with tile as (
      insert into ${ledgerTiles} (circle_id, level, idx, data)
      values (${block.circleId}, 0, ${Math.floor(block.height / TILE_WIDTH)}, ${leaf})
      on conflict (circle_id, level, idx) do update set data = ${ledgerTiles}.data || excluded.data
    )
    update ${ledgerHeads}
    set size = ${size}, head_hash = ${block.hash}, frontier = ${JSON.stringify(tree.frontier)}::jsonb,
      checkpoint = ${tree.checkpoint}, tiled_size = ${size}
    where circle_id = ${block.circleId}`)
  await tx.insert(ledgerCheckpoints).values({ circleId: block.circleId, size, note: tree.checkpoint })
  return row!
}

/** Adds a hash at the end of a tile (created with it), in the append's transaction (issue 29). */
export async function appendToTile(tx: Executor, circleId: string, level: number, idx: number, hash: Buffer) {
  await tx
    .insert(ledgerTiles)
    .values({ circleId, level, idx, data: hash })
    .onConflictDoUpdate({
      target: [ledgerTiles.circleId, ledgerTiles.level, ledgerTiles.idx],
      set: { data: sql`${ledgerTiles.data} || excluded.data` },
    })
}

/** The stored tiles among `wanted` (as stored: possibly wider than asked). */
export async function readTiles(db: Executor, circleId: string, wanted: { level: number; idx: number }[]) {
  if (wanted.length === 0) return []
  return db
    .select({ level: ledgerTiles.level, idx: ledgerTiles.idx, data: ledgerTiles.data })
    .from(ledgerTiles)
    .where(
      and(
        eq(ledgerTiles.circleId, circleId),
        or(...wanted.map((w) => and(eq(ledgerTiles.level, w.level), eq(ledgerTiles.idx, w.idx)))),
      ),
    )
}

/** A log's tiles written anew (one that had none), up to `size` leaves. */
export async function replaceTiles(
  tx: Executor,
  circleId: string,
  size: number,
  tiles: { level: number; idx: number; data: Buffer }[],
) {
  await tx.delete(ledgerTiles).where(eq(ledgerTiles.circleId, circleId))
  for (let i = 0; i < tiles.length; i += 500)
    await tx.insert(ledgerTiles).values(tiles.slice(i, i + 500).map((t) => ({ circleId, ...t })))
  await tx.update(ledgerHeads).set({ tiledSize: size }).where(eq(ledgerHeads.circleId, circleId))
}

/** The leaf hashes of a circle's first `size` blocks, in order: for proofs and for a frontier rebuild. */
export async function leafHashes(db: Executor, circleId: string, size: number): Promise<string[]> {
  const rows = await db
    .select({ hash: blocks.hash })
    .from(blocks)
    .where(and(eq(blocks.circleId, circleId), lt(blocks.height, size)))
    .orderBy(asc(blocks.height))
  return rows.map((r) => r.hash)
}

export async function checkpointAt(db: Executor, circleId: string, size: number) {
  const [row] = await db
    .select({ note: ledgerCheckpoints.note })
    .from(ledgerCheckpoints)
    .where(and(eq(ledgerCheckpoints.circleId, circleId), eq(ledgerCheckpoints.size, size)))
  return row?.note
}

export function checkpointsOf(db: Executor, circleId: string) {
  return db
    .select({ size: ledgerCheckpoints.size, note: ledgerCheckpoints.note })
    .from(ledgerCheckpoints)
    .where(eq(ledgerCheckpoints.circleId, circleId))
    .orderBy(asc(ledgerCheckpoints.size))
}

/** What a block view adds to the block: the item's current picture, the handover's texts. */
const blockView = {
  block: blocks,
  /** Null once the item is deleted: the block stays, its picture goes. */
  currentItemId: items.id,
  imageId: items.imageId,
  imageType: items.imageType,
  requesterComment: handovers.requesterComment,
  receiverComment: handovers.receiverComment,
  secretMessage: handovers.secretMessage,
  receiverId: handovers.receiverId,
  // Issue 28: the notes a v5 block's evidence commits to, with their salts, kept beside the block.
  senderId: handovers.senderId,
  senderNote: handovers.senderNote,
  senderNoteSalt: handovers.senderNoteSalt,
  receiverNote: handovers.receiverNote,
  receiverNoteSalt: handovers.receiverNoteSalt,
}
export type BlockViewRow = {
  block: BlockRow
  currentItemId: string | null
  imageId: string | null
  imageType: 'jpg' | 'png' | 'webp' | null
  requesterComment: string | null
  receiverComment: string | null
  secretMessage: string | null
  receiverId: string | null
  senderId: string | null
  senderNote: string | null
  senderNoteSalt: string | null
  receiverNote: string | null
  receiverNoteSalt: string | null
}

/** The circles a user is a member of, as a subquery. */
const circlesOf = (db: Executor, userId: string) =>
  db.select({ id: circleMembers.circleId }).from(circleMembers).where(eq(circleMembers.userId, userId))

function selectBlocks(db: Executor, userId: string, condition?: SQL) {
  return db
    .select(blockView)
    .from(blocks)
    .leftJoin(items, eq(items.id, blocks.itemId))
    .leftJoin(handovers, eq(handovers.id, blocks.handoverId))
    .where(and(inArray(blocks.circleId, circlesOf(db, userId)), condition))
}

/**
 * The circle an item belongs to: the item's own, or, once the item is deleted, the circle its blocks
 * were written in (an item never changes circle). Undefined for an id that never was an item with blocks.
 */
export async function circleOfItem(db: Executor, itemId: string): Promise<string | undefined> {
  const [item] = await db.select({ circleId: items.circleId }).from(items).where(eq(items.id, itemId))
  if (item) return item.circleId
  const [block] = await db
    .select({ circleId: blocks.circleId })
    .from(blocks)
    .where(eq(blocks.itemId, itemId))
    .limit(1)
  return block?.circleId
}

/** Newest first, at most `limit`: the blocks of every circle the user is a member of. */
export function listForMember(db: Executor, userId: string, limit: number): Promise<BlockViewRow[]> {
  return selectBlocks(db, userId).orderBy(desc(blocks.time), desc(blocks.height)).limit(limit)
}

export function listForCircle(db: Executor, userId: string, circleId: string, limit: number) {
  return selectBlocks(db, userId, eq(blocks.circleId, circleId)).orderBy(desc(blocks.height)).limit(limit)
}

export function listForItem(db: Executor, userId: string, itemId: string, limit: number) {
  return selectBlocks(db, userId, eq(blocks.itemId, itemId))
    .orderBy(desc(blocks.time), desc(blocks.height))
    .limit(limit)
}

export async function findForMember(db: Executor, userId: string, id: string) {
  const [row] = await selectBlocks(db, userId, eq(blocks.id, id)).limit(1)
  return row
}

/** The blocks confirmations of these handovers appended, by handover id. */
export function blocksOfHandovers(db: Executor, handoverIds: string[]) {
  if (handoverIds.length === 0) return Promise.resolve([])
  return db
    .select({ id: blocks.id, hash: blocks.hash, handoverId: blocks.handoverId })
    .from(blocks)
    .where(inArray(blocks.handoverId, handoverIds))
}

/** The handovers among `ids` that still exist (an item's deletion takes its handovers), with their sender. */
export function existingHandovers(db: Executor, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .select({ id: handovers.id, senderId: handovers.senderId })
    .from(handovers)
    .where(inArray(handovers.id, ids))
}

/**
 * One page of a circle's chain in height order, after `afterHeight` (and below `belowHeight` when
 * given): how verify and the export stream a chain.
 */
export function chainPage(
  db: Executor,
  circleId: string,
  afterHeight: number,
  size: number,
  belowHeight?: number,
) {
  return db
    .select()
    .from(blocks)
    .where(
      and(
        eq(blocks.circleId, circleId),
        gt(blocks.height, afterHeight),
        belowHeight === undefined ? undefined : lt(blocks.height, belowHeight),
      ),
    )
    .orderBy(asc(blocks.height))
    .limit(size)
}

export async function headOf(db: Executor, circleId: string) {
  const [head] = await db.select().from(ledgerHeads).where(eq(ledgerHeads.circleId, circleId))
  return head
}

/**
 * Who last received complete ownership of an item by a block (a handover, or an automatic transfer
 * since issue 23), or undefined when no block gave it complete: then its creator still holds that
 * right. Newest block first, by the item's index.
 */
export async function lastCompleteReceiver(db: Executor, circleId: string, itemId: string) {
  const [row] = await db
    .select({ toId: blocks.toId })
    .from(blocks)
    .where(
      and(
        eq(blocks.itemId, itemId),
        eq(blocks.circleId, circleId),
        eq(blocks.ownership, 'COMPLETE'),
        // A loan's blocks (issue 26) never move ownership: the lender stays the owner.
        inArray(blocks.kind, ['HANDOVER', 'AUTO_TRANSFER']),
      ),
    )
    .orderBy(desc(blocks.height))
    .limit(1)
  return row?.toId
}

/** The circle a block belongs to, whoever asks (to tell a former member why they cannot see it). */
export async function circleOfBlock(db: Executor, id: string): Promise<string | undefined> {
  const [row] = await db.select({ circleId: blocks.circleId }).from(blocks).where(eq(blocks.id, id)).limit(1)
  return row?.circleId
}

import {
  type BlockContent,
  BLOCK_VERSION,
  blockHash,
  createChainVerifier,
  GENESIS_PREV_HASH,
} from '@circles/ledger'
import { MESSAGES, type TBlock, type TUser, type TVerificationResult } from '@circles/shared'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import { AppError } from '../../lib/errors'
import { requireMember } from '../circles/access'
import { imageUrls } from '../items/images'
import * as repo from './ledger.repository'
import type { BlockRow, BlockViewRow } from './ledger.repository'

/** The most blocks one list answers with; a circle's whole chain is for verify and (later) export. */
const LIST_LIMIT = 500
/** How many rows verify reads at a time: memory stays flat however long the chain. */
const VERIFY_PAGE = 2000

/** What a caller asks to record; the ledger adds height, links, circle name and time. */
export interface AppendRequest {
  kind: BlockContent['kind']
  circleId: string
  handoverId: string | null
  item: { id: string; name: string }
  from: { id: string; name: string }
  to: { id: string; name: string }
  ownership: BlockContent['ownership']
  commitments: BlockContent['commitments']
}

/** A stored row, read back into exactly the content that was hashed. */
export function contentOf(row: BlockRow): BlockContent {
  return {
    v: row.version as typeof BLOCK_VERSION,
    kind: row.kind,
    circle: { id: row.circleId, name: row.circleName },
    height: row.height,
    prevHash: row.prevHash,
    first: row.first,
    time: row.time,
    handoverId: row.handoverId,
    item: { id: row.itemId, name: row.itemName },
    from: { id: row.fromId, name: row.fromName },
    to: { id: row.toId, name: row.toName },
    ownership: row.ownership,
    commitments: {
      requesterComment: row.requesterCommentCommitment,
      receiverComment: row.receiverCommentCommitment,
      secretMessage: row.secretMessageCommitment,
    },
  }
}

function toBlock(row: BlockViewRow, viewer: TUser): TBlock {
  return {
    id: row.block.id,
    hash: row.block.hash,
    content: contentOf(row.block),
    item: row.currentItemId ? imageUrls(row.imageId, row.imageType) : null,
    comments: {
      requesterComment: row.requesterComment,
      receiverComment: row.receiverComment,
      // The secret is the receiver's alone, on every endpoint.
      secretMessage: row.receiverId === viewer.id ? row.secretMessage : null,
    },
  }
}

export function createLedgerService(ctx: AppContext) {
  /**
   * Appends a block to the circle's chain inside the caller's transaction. The head row is locked
   * first, so appends of one circle run one at a time; unique (circle, height) and (circle, prevHash)
   * stop a fork should anything get past the lock.
   */
  async function append(tx: Executor, request: AppendRequest): Promise<BlockRow> {
    const head = await repo.lockHead(tx, request.circleId)
    const content: BlockContent = {
      v: BLOCK_VERSION,
      kind: request.kind,
      circle: { id: request.circleId, name: head.circleName },
      height: head.size,
      prevHash: head.size === 0 ? GENESIS_PREV_HASH : head.headHash,
      first: head.size === 0,
      time: new Date().toISOString(),
      handoverId: request.handoverId,
      item: request.item,
      from: request.from,
      to: request.to,
      ownership: request.ownership,
      commitments: request.commitments,
    }
    return repo.appendBlock(tx, {
      circleId: content.circle.id,
      height: content.height,
      hash: blockHash(content),
      prevHash: content.prevHash,
      version: content.v,
      kind: content.kind,
      first: content.first,
      time: content.time,
      circleName: content.circle.name,
      handoverId: content.handoverId,
      itemId: content.item.id,
      itemName: content.item.name,
      fromId: content.from.id,
      fromName: content.from.name,
      toId: content.to.id,
      toName: content.to.name,
      ownership: content.ownership,
      requesterCommentCommitment: content.commitments.requesterComment,
      receiverCommentCommitment: content.commitments.receiverComment,
      secretMessageCommitment: content.commitments.secretMessage,
    })
  }

  /** Takes the circle's append lock now, for a transaction that must lock it before other rows. */
  async function lockCircle(tx: Executor, circleId: string): Promise<void> {
    await repo.lockHead(tx, circleId)
  }

  const views = (rows: BlockViewRow[], actor: TUser) => rows.map((row) => toBlock(row, actor))

  /** Only members read a circle's blocks: every query joins the caller's memberships. */
  async function list(actor: TUser): Promise<TBlock[]> {
    return views(await repo.listForMember(ctx.db, actor.id, LIST_LIMIT), actor)
  }

  async function listCircle(actor: TUser, circleId: string): Promise<TBlock[]> {
    await requireMember(ctx.db, circleId, actor)
    return views(await repo.listForCircle(ctx.db, actor.id, circleId, LIST_LIMIT), actor)
  }

  async function listItem(actor: TUser, itemId: string): Promise<TBlock[]> {
    return views(await repo.listForItem(ctx.db, actor.id, itemId, LIST_LIMIT), actor)
  }

  async function get(actor: TUser, id: string): Promise<TBlock> {
    const row = await repo.findForMember(ctx.db, actor.id, id)
    if (!row) throw new AppError('NOT_FOUND', MESSAGES.blockNotFound)
    return toBlock(row, actor)
  }

  /**
   * Recomputes every block of the circle from its stored fields, a page at a time in height order, and
   * names each block whose content, hash or link does not check out.
   */
  async function verify(actor: TUser, circleId: string): Promise<TVerificationResult> {
    await requireMember(ctx.db, circleId, actor)
    const verifier = createChainVerifier()
    let after = -1
    for (;;) {
      const page = await repo.chainPage(ctx.db, circleId, after, VERIFY_PAGE)
      for (const row of page) verifier.push({ id: row.id, hash: row.hash, content: contentOf(row) })
      if (page.length < VERIFY_PAGE) break
      after = page[page.length - 1]!.height
    }
    const result = verifier.result()
    return { ...result, message: result.valid ? MESSAGES.ledgerValid : MESSAGES.ledgerCompromised }
  }

  return { append, lockCircle, list, listCircle, listItem, get, verify }
}

export type LedgerService = ReturnType<typeof createLedgerService>

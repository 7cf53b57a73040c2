import {
  addSignatureLines,
  appendLeaf,
  type BlockContent,
  type BlockEvidence,
  type BlockLoan,
  BLOCK_VERSION,
  type TransferReason,
  blockBytes,
  blockHash,
  emptyRoot,
  createChainVerifier,
  emptyFrontier,
  type Frontier,
  frontierRoot,
  GENESIS_PREV_HASH,
  type KeptNames,
  nameCommitment,
  type Side,
  SIDES,
  signCheckpoint,
  type StoredBlock,
  buildTiles,
  entryBundle as entryBundleOf,
  fullTileHash,
  openCheckpoint,
  parseTilePath,
  parseVerifierKey,
  type Tile,
  tiledTree,
  TILE_WIDTH,
} from '@circles/ledger'
import { randomBytes } from 'node:crypto'
import {
  MESSAGES,
  type TBlock,
  type TBlockEvidence,
  type TFailingPhoto,
  type TLedgerReceipt as LedgerReceipt,
  type TUser,
  type TVerificationResult,
} from '@circles/shared'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import { AppError, notFound } from '../../lib/errors'
import type { LedgerSigner } from '../../lib/ledger-signer'
import { explainOutsider, requireMember } from '../membership/access'
import { imageUrls } from '../../lib/images'
import { photoView, type ConditionService, type HandoverPhotos } from '../condition/condition.service'
import * as repo from './ledger.repository'
import { cosignerKeys, linesBySize } from './cosigners'
import { logOrigin } from './log-origin'
import * as witnessRepo from './witness.repository'
import type { BlockRow, BlockViewRow } from './ledger.repository'

/** The most blocks one list answers with; a circle's whole chain is for verify and (later) export. */
const LIST_LIMIT = 500
/** How many rows verify reads at a time: memory stays flat however long the chain. */
const VERIFY_PAGE = 2000

/** What a caller asks to record; the ledger adds the circle, height, links and time. */
export interface AppendRequest {
  kind: BlockContent['kind']
  handoverId: string | null
  item: { id: string; name: string }
  from: { id: string; name: string }
  to: { id: string; name: string }
  ownership: BlockContent['ownership']
  commitments: BlockContent['commitments']
  /**
   * AUTO_TRANSFER: the holder left, or the admin removed them; LOAN_CHANGE: the loan was recalled for
   * the same reasons (null for a change of date); null for the other kinds.
   */
  reason: TransferReason | null
  /** v4 (issue 26): the loan a LOAN, RETURN or LOAN_CHANGE is about, and its date (null on a RETURN). */
  loan?: BlockLoan | null
  /** v5 (issue 28): the condition evidence of a handing over; null or absent when nobody recorded any. */
  evidence?: BlockEvidence | null
}

/** The circle's ledger, locked for one transaction: what may be appended under the lock. */
export interface LedgerLock {
  append(request: AppendRequest): Promise<{ block: BlockRow; receipt: LedgerReceipt }>
}

/**
 * A stored row, read back into exactly the content that was hashed: a v1 row (written before issue
 * 23) without `reason`, a v2 row with it, a v3 row (issue 24) with the name commitments in place of the
 * names. A redacted v1/v2 row reads with its name null (it has no bytes then; see `storedBlockOf`).
 * Any other version is read as it is, so verify reports it.
 */
export function contentOf(row: BlockRow): BlockContent {
  const common = {
    kind: row.kind,
    circle: { id: row.circleId, name: row.circleName },
    height: row.height,
    prevHash: row.prevHash,
    first: row.first,
    time: row.time,
    handoverId: row.handoverId,
    item: { id: row.itemId, name: row.itemName },
    ownership: row.ownership,
    commitments: {
      requesterComment: row.requesterCommentCommitment,
      receiverComment: row.receiverCommentCommitment,
      secretMessage: row.secretMessageCommitment,
    },
  }
  if (row.version >= 3 && row.version <= 5) {
    const committed = {
      ...common,
      reason: row.reason,
      from: { id: row.fromId, nameCommitment: row.fromNameCommitment! },
      to: { id: row.toId, nameCommitment: row.toNameCommitment! },
    }
    if (row.version === 3) return { v: 3, ...committed, kind: row.kind as 'HANDOVER' | 'AUTO_TRANSFER' }
    // v4 (issue 26): the loan's id and its date, the exact string that was hashed (null on a RETURN).
    const loan = row.loanId ? { id: row.loanId, dueAt: row.dueAt } : null
    if (row.version === 4) return { v: 4, ...committed, loan }
    // v5 (issue 28): and the condition evidence, as it was hashed.
    return { v: 5, ...committed, loan, evidence: row.evidence ?? null }
  }
  const fields = {
    ...common,
    from: { id: row.fromId, name: row.fromName },
    to: { id: row.toId, name: row.toName },
  }
  // Rows before v4 hold only the kinds of their version (a loan kind there fails verification).
  const kind = row.kind as 'HANDOVER' | 'AUTO_TRANSFER'
  if (row.version === 1) return { v: 1, ...fields, kind }
  return { v: row.version as 2, ...fields, kind, reason: row.reason }
}

/** The names kept beside a row: v3 with their salts; v1/v2 the hashed names (salt null); null if erased. */
export function namesOf(row: BlockRow): KeptNames {
  const salts = row.version >= 3
  return {
    from: { name: row.fromName, salt: salts ? row.fromNameSalt : null },
    to: { name: row.toName, salt: salts ? row.toNameSalt : null },
  }
}

/** The people of a v1/v2 row whose name was redacted (their hash covered it); none on a v3 row. */
export function redactedOf(row: BlockRow): Side[] {
  if (row.version >= 3) return []
  return SIDES.filter((side) => (side === 'from' ? row.fromName : row.toName) === null)
}

/** The leaf hashes of a circle's first `size` blocks, in order: audit paths for other modules' files. */
export const leafHashes = repo.leafHashes

/** A row as the chain verifier takes it: content, kept names (v3) and redaction marker (v1/v2). */
export function storedBlockOf(row: BlockRow): StoredBlock {
  const redacted = redactedOf(row)
  return {
    id: row.id,
    hash: row.hash,
    content: contentOf(row),
    ...(row.version >= 3 ? { names: namesOf(row) } : {}),
    ...(redacted.length ? { redacted } : {}),
  }
}

/**
 * What a v5 block keeps beside its evidence (issue 28): each person's note and salt, and where each
 * committed photo is served (the photo at the same side and place; null once the item and its pictures
 * are gone, or if none is stored there: the browser then says so, and verify reports it).
 */
function evidenceOf(row: BlockViewRow, photos: HandoverPhotos | undefined): TBlockEvidence | null {
  const content = contentOf(row.block)
  if (content.v !== 5 || !content.evidence) return null
  const senderIsFrom = row.senderId === null || row.senderId === content.from.id
  const side = (person: 'from' | 'to') => {
    const isSender = (person === 'from') === senderIsFrom
    const rows = (isSender ? photos?.sender : photos?.receiver) ?? []
    return {
      note: isSender ? row.senderNote : row.receiverNote,
      noteSalt: isSender ? row.senderNoteSalt : row.receiverNoteSalt,
      photos: content.evidence![person].photos.map((sha256, i) => {
        const view = rows[i] ? photoView(rows[i]) : null
        return { sha256, url: view?.url ?? null, thumbnailUrl: view?.thumbnailUrl ?? null }
      }),
    }
  }
  return { from: side('from'), to: side('to') }
}

function toBlock(row: BlockViewRow, viewer: TUser, photos?: HandoverPhotos): TBlock {
  return {
    id: row.block.id,
    hash: row.block.hash,
    content: contentOf(row.block),
    names: namesOf(row.block),
    redacted: redactedOf(row.block),
    item: row.currentItemId ? imageUrls(row.imageId, row.imageType) : null,
    comments: {
      requesterComment: row.requesterComment,
      receiverComment: row.receiverComment,
      // The secret is the receiver's alone, on every endpoint.
      secretMessage: row.receiverId === viewer.id ? row.secretMessage : null,
    },
    evidence: evidenceOf(row, photos),
  }
}

const fromHex = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'))
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

export function createLedgerService(ctx: AppContext, signer: LedgerSigner, condition: ConditionService) {
  /** The log's origin: that of its checkpoints, else LEDGER_ORIGIN's (docs/decisions/0064). */
  const originOf = (circleId: string, signedNote?: string | null) =>
    logOrigin(ctx.config.ledgerOrigin, circleId, signedNote)

  /**
   * The head's frontier as a tree of `size` leaves. A head written before frontiers were kept (or one
   * that disagrees with its size) is rebuilt from the circle's blocks, under the same lock.
   */
  async function frontierOf(tx: Executor, circleId: string, head: { size: number; frontier: string[] }) {
    const stored: Frontier = { size: head.size, nodes: head.frontier.map(fromHex) }
    const expected = head.size.toString(2).replaceAll('0', '').length
    if (head.size === 0 || stored.nodes.length === expected) return stored
    let rebuilt = emptyFrontier()
    for (const hash of await repo.leafHashes(tx, circleId, head.size))
      rebuilt = appendLeaf(rebuilt, fromHex(hash))
    return rebuilt
  }

  /**
   * Issue 29: after the leaf at `index` went into its level-0 tile (with the block, `repo.appendBlock`):
   * a tile that became full hands its hash to the tile above, and so on (once in 256 appends, once in
   * 65,536, …).
   */
  async function carryFullTiles(tx: Executor, circleId: string, index: number) {
    let [level, at] = [0, index]
    while ((at + 1) % TILE_WIDTH === 0) {
      const idx = Math.floor(at / TILE_WIDTH)
      const [full] = await repo.readTiles(tx, circleId, [{ level, idx }])
      ;[level, at] = [level + 1, idx]
      await repo.appendToTile(
        tx,
        circleId,
        level,
        Math.floor(at / TILE_WIDTH),
        Buffer.from(fullTileHash(Uint8Array.from(full!.data))),
      )
    }
  }

  /** The tiles of a log written before tiles existed, built once from its leaves under the lock. */
  async function writeAllTiles(tx: Executor, circleId: string, size: number) {
    const leaves = (await repo.leafHashes(tx, circleId, size)).map(fromHex)
    const tiles = buildTiles(leaves).map(({ tile, data }) => ({
      level: tile.level as number,
      idx: tile.index,
      data: Buffer.from(data),
    }))
    await repo.replaceTiles(tx, circleId, size, tiles)
  }

  /** Makes sure a log appended to before tiles existed has them (once, under its lock). */
  async function ensureTiles(circleId: string, head: { size: number; tiledSize: number }) {
    if (head.tiledSize === head.size) return
    await ctx.db.transaction(async (tx) => {
      const locked = await repo.lockHead(tx, circleId)
      if (locked.tiledSize !== locked.size) await writeAllTiles(tx, circleId, locked.size)
    })
  }

  /** Reads a circle's tiles for a tree of any size up to the head's (a narrower tile is a prefix). */
  function tileReader(db: Executor, circleId: string) {
    return async (tiles: Tile[]) => {
      const rows = await repo.readTiles(
        db,
        circleId,
        tiles.map((t) => ({ level: t.level as number, idx: t.index })),
      )
      const stored = new Map(rows.map((row) => [`${row.level}/${row.idx}`, row.data]))
      return tiles.map((t) => {
        const data = stored.get(`${t.level as number}/${t.index}`)
        if (!data || data.length < t.width * 32) throw new Error(`tile ${t.level}/${t.index} is missing`)
        return Uint8Array.from(data.subarray(0, t.width * 32))
      })
    }
  }

  /** The head of a member's circle with its tiles written: what the proofs and tiles are read for. */
  async function tiledHead(actor: TUser, circleId: string) {
    await requireMember(ctx.db, circleId, actor)
    const head = await repo.headOf(ctx.db, circleId)
    if (head) await ensureTiles(circleId, head)
    return { size: head?.size ?? 0, tree: (size: number) => tiledTree(size, tileReader(ctx.db, circleId)) }
  }

  /**
   * Locks the circle's ledger head for the caller's transaction (before the rows it then locks, in the
   * same order everywhere) and answers the appends made under that lock: the circle's appends run one at
   * a time, and unique (circle, height) and (circle, prevHash) stop a fork should anything get past the
   * lock. The head is read once; each append moves it in memory and on its row.
   */
  async function lockCircle(tx: Executor, circleId: string): Promise<LedgerLock> {
    const head = await repo.lockHead(tx, circleId)
    let size = head.size
    let headHash = head.headHash
    let frontier: Frontier | undefined
    let tiled = head.tiledSize
    const origin = originOf(circleId, head.checkpoint)

    async function append(request: AppendRequest): Promise<{ block: BlockRow; receipt: LedgerReceipt }> {
      const startedAt = performance.now()
      // v3 (docs/decisions/0034): each name enters the hash only as a commitment with a fresh salt; the
      // name and salt are stored beside the block, where erasing them leaves the block verifying.
      const salts = { from: randomBytes(16).toString('hex'), to: randomBytes(16).toString('hex') }
      const content: BlockContent = {
        v: BLOCK_VERSION,
        kind: request.kind,
        circle: { id: circleId, name: head.circleName },
        height: size,
        prevHash: size === 0 ? GENESIS_PREV_HASH : headHash,
        first: size === 0,
        time: new Date().toISOString(),
        handoverId: request.handoverId,
        item: request.item,
        from: { id: request.from.id, nameCommitment: nameCommitment(request.from.name, salts.from) },
        to: { id: request.to.id, nameCommitment: nameCommitment(request.to.name, salts.to) },
        ownership: request.ownership,
        reason: request.reason,
        loan: request.loan ?? null,
        commitments: request.commitments,
        evidence: request.evidence ?? null,
      }
      const hash = blockHash(content)
      // Issue 29: the leaf goes into its tiles in this transaction (a log without tiles gets them first).
      if (tiled !== size) await writeAllTiles(tx, circleId, size)
      tiled = size + 1
      const before = (frontier ??= await frontierOf(tx, circleId, head))
      const after = appendLeaf(before, fromHex(hash))
      const checkpoint = signCheckpoint(
        { origin, size: after.size, rootHash: frontierRoot(after), extensions: [] },
        signer,
      )
      const block = await repo.appendBlock(
        tx,
        {
          circleId,
          height: content.height,
          hash,
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
          fromName: request.from.name,
          fromNameSalt: salts.from,
          fromNameCommitment: content.from.nameCommitment,
          toId: content.to.id,
          toName: request.to.name,
          toNameSalt: salts.to,
          toNameCommitment: content.to.nameCommitment,
          ownership: content.ownership,
          requesterCommentCommitment: content.commitments.requesterComment,
          receiverCommentCommitment: content.commitments.receiverComment,
          secretMessageCommitment: content.commitments.secretMessage,
          reason: content.reason,
          loanId: content.loan?.id ?? null,
          dueAt: content.loan?.dueAt ?? null,
          evidence: content.evidence,
        },
        { frontier: after.nodes.map(toHex), checkpoint },
        Buffer.from(fromHex(hash)),
      )
      await carryFullTiles(tx, circleId, content.height)
      size = after.size
      headHash = hash
      frontier = after
      ctx.metrics.ledgerAppended((performance.now() - startedAt) / 1000)
      // The newest leaf's audit path is the earlier frontier, smallest subtree first (RFC 6962 §2.1.1).
      const receipt: LedgerReceipt = {
        blockId: block.id,
        index: content.height,
        size: after.size,
        leafHash: hash,
        proof: before.nodes.toReversed().map(toHex),
        checkpoint,
      }
      return { block, receipt }
    }

    return { append }
  }

  /** Block rows as their views, the condition photos of every v5 block with evidence read in one query. */
  async function views(rows: BlockViewRow[], actor: TUser): Promise<TBlock[]> {
    const withEvidence = rows.filter((row) => row.block.evidence && row.block.handoverId)
    const photos = await condition.photosFor(
      ctx.db,
      withEvidence.map((row) => row.block.handoverId!),
    )
    return rows.map((row) =>
      toBlock(row, actor, row.block.handoverId ? photos.get(row.block.handoverId) : undefined),
    )
  }

  /** Only members read a circle's blocks: every query joins the caller's memberships. */
  async function list(actor: TUser): Promise<TBlock[]> {
    return views(await repo.listForMember(ctx.db, actor.id, LIST_LIMIT), actor)
  }

  /**
   * A circle's newest blocks with the log's newest checkpoint (docs/decisions/0066), so the device
   * checks them without asking for it again.
   */
  async function listCircle(actor: TUser, circleId: string) {
    await requireMember(ctx.db, circleId, actor)
    return listed(circleId, await repo.listForCircle(ctx.db, actor.id, circleId, LIST_LIMIT), actor)
  }

  /** An item's chain, for the members of its circle; anyone else gets the 404 of a foreign resource. */
  async function listItem(actor: TUser, itemId: string) {
    const circleId = await repo.circleOfItem(ctx.db, itemId)
    if (!circleId) throw notFound()
    await requireMember(ctx.db, circleId, actor)
    return listed(circleId, await repo.listForItem(ctx.db, actor.id, itemId, LIST_LIMIT), actor)
  }

  /**
   * One circle's blocks as their views, with its newest checkpoint. The checkpoint is read after the
   * blocks (an append writes its block and the head in one transaction): every listed block is in it.
   */
  async function listed(
    circleId: string,
    rows: BlockViewRow[],
    actor: TUser,
  ): Promise<{ blocks: TBlock[]; checkpoint?: string }> {
    const [blocks, checkpoint] = await Promise.all([views(rows, actor), newestCheckpoint(circleId)])
    return checkpoint === undefined ? { blocks } : { blocks, checkpoint }
  }

  async function get(actor: TUser, id: string): Promise<TBlock> {
    const row = await repo.findForMember(ctx.db, actor.id, id)
    if (!row) {
      // A former member of its circle is told why (docs/decisions/0027); anyone else: not found.
      const circleId = await repo.circleOfBlock(ctx.db, id)
      const outsider = circleId ? await explainOutsider(ctx.db, circleId, actor) : undefined
      throw outsider ?? new AppError('NOT_FOUND', MESSAGES.blockNotFound)
    }
    return (await views([row], actor))[0]!
  }

  /**
   * Recomputes every block of the circle from its stored fields, a page at a time in height order, and
   * names each block whose content, hash or link does not check out.
   */
  async function verify(actor: TUser, circleId: string): Promise<TVerificationResult> {
    await requireMemberForLogRead(actor, circleId)
    // Issue 29: the stored leaves must also make the root the server signed last. A block rewritten
    // with its hash recomputed (and every later link) passes the chain check; it fails this one.
    const signed = signedTree((await repo.headOf(ctx.db, circleId))?.checkpoint ?? null)
    const verifier = createChainVerifier()
    const failingPhotos: TFailingPhoto[] = []
    let frontier = emptyFrontier()
    let treeMatchesCheckpoint = signed === null
    let after = -1
    for (;;) {
      const page = await repo.chainPage(ctx.db, circleId, after, VERIFY_PAGE)
      for (const row of page) {
        verifier.push(storedBlockOf(row))
        frontier = appendLeaf(frontier, fromHex(row.hash))
        if (signed && frontier.size === signed.size)
          treeMatchesCheckpoint = toHex(frontierRoot(frontier)) === toHex(signed.rootHash)
      }
      failingPhotos.push(...(await checkPhotos(page)))
      if (page.length < VERIFY_PAGE) break
      after = page[page.length - 1]!.height
    }
    const result = verifier.result()
    const valid = result.valid && failingPhotos.length === 0 && treeMatchesCheckpoint
    return {
      ...result,
      valid,
      failingPhotos,
      treeMatchesCheckpoint,
      message: valid ? MESSAGES.ledgerValid : MESSAGES.ledgerCompromised,
    }
  }

  /**
   * Issue 28: every photo a page's v5 blocks commit to, hashed from the bytes stored now. A block whose
   * handover is gone (its item was deleted, and its pictures with it) keeps its digests and is skipped;
   * otherwise a photo missing or stored with other bytes is reported.
   */
  async function checkPhotos(page: BlockRow[]): Promise<TFailingPhoto[]> {
    const withEvidence = page.filter((row) => row.evidence && row.handoverId)
    if (withEvidence.length === 0) return []
    const ids = withEvidence.map((row) => row.handoverId!)
    const existing = new Map((await repo.existingHandovers(ctx.db, ids)).map((h) => [h.id, h.senderId]))
    const photos = await condition.photosFor(ctx.db, [...existing.keys()])
    const failing: TFailingPhoto[] = []
    for (const row of withEvidence) {
      const senderId = existing.get(row.handoverId!)
      const evidence = row.evidence!
      if (senderId === undefined) continue
      const stored = photos.get(row.handoverId!)
      for (const side of SIDES) {
        const isSender = (side === 'from') === (senderId === row.fromId)
        const rows = (isSender ? stored?.sender : stored?.receiver) ?? []
        for (const [i, expected] of evidence[side].photos.entries()) {
          const actual = rows[i] ? await condition.storedDigest(rows[i]) : null
          if (actual !== expected)
            failing.push({ blockId: row.id, index: row.height, side, photo: i + 1, expected, actual })
        }
      }
    }
    return failing
  }

  /** The size and root of a checkpoint this server signed; null without one (an empty log). */
  function signedTree(note: string | null) {
    if (!note) return null
    try {
      return openCheckpoint(note, signer.verifierKeys.map(parseVerifierKey)).checkpoint
    } catch {
      // A stored checkpoint that no key of ours opens: nothing the leaves can be held against.
      return { size: -1, rootHash: new Uint8Array(32) }
    }
  }

  /** The verifier keys members check checkpoints with; no session needed (issue 14). */
  function keys(): { keys: string[] } {
    return { keys: signer.verifierKeys }
  }

  /**
   * The newest signed checkpoint with its cosignatures; an empty log's is signed on request (Ed25519 is
   * deterministic).
   */
  async function checkpoint(actor: TUser, circleId: string): Promise<string> {
    await requireMember(ctx.db, circleId, actor)
    const note = await newestCheckpoint(circleId)
    if (note === undefined) throw new AppError('CONFLICT', MESSAGES.ledgerNotSignedYet)
    return note
  }

  /**
   * For a caller whose access was checked: the newest checkpoint with the cosignature lines of its size
   * (docs/decisions/0059), head and lines read in one query; undefined while a log with entries has none
   * signed yet.
   */
  async function newestCheckpoint(circleId: string): Promise<string | undefined> {
    const head = await witnessRepo.cosignedHead(ctx.db, circleId)
    if (head?.checkpoint) return addSignatureLines(head.checkpoint, head.lines)
    if (head && head.size > 0) return undefined
    return signCheckpoint(
      { origin: originOf(circleId), size: 0, rootHash: emptyRoot(), extensions: [] },
      signer,
    )
  }

  /** The signed checkpoint of `size` entries (every append stored one), with its cosignatures. */
  async function checkpointOfSize(circleId: string, size: number): Promise<string> {
    const note = await repo.checkpointAt(ctx.db, circleId, size)
    if (!note) throw new AppError('NOT_FOUND', MESSAGES.ledgerNoSuchCheckpoint)
    return addSignatureLines(note, await witnessRepo.cosignersLines(ctx.db, circleId, size))
  }

  /** A member's call that reads and hashes the circle's whole log: counted, as each costs O(n). */
  async function requireMemberForLogRead(actor: TUser, circleId: string): Promise<void> {
    await requireMember(ctx.db, circleId, actor)
    await ctx.rateLimits.consume([['ledgerLogReadsPerAccount', actor.id]], MESSAGES.tooManyRequests)
  }

  /**
   * RFC 6962 audit path of entry `index` in the tree of `size` entries, built from the circle's tiles:
   * O(log n) reads (issue 29), so proofs need no rationing beyond the API's.
   */
  async function inclusion(actor: TUser, circleId: string, index: number, size: number) {
    const head = await tiledHead(actor, circleId)
    if (size < 1 || size > head.size || index >= size)
      throw new AppError('VALIDATION_ERROR', MESSAGES.ledgerBadProofRange)
    const [path] = await head.tree(size).inclusionProofs([index])
    return {
      index,
      size,
      leafHash: toHex(path!.leaf),
      proof: path!.proof.map(toHex),
      checkpoint: await checkpointOfSize(circleId, size),
    }
  }

  /** The audit paths of several entries in the tree of `size` entries. */
  async function inclusions(actor: TUser, circleId: string, indexes: number[], size: number) {
    const head = await tiledHead(actor, circleId)
    if (size < 1 || size > head.size || indexes.some((index) => index >= size))
      throw new AppError('VALIDATION_ERROR', MESSAGES.ledgerBadProofRange)
    const unique = [...new Set(indexes)]
    const paths = await head.tree(size).inclusionProofs(unique)
    const proofs = unique.map((index, i) => ({
      index,
      leafHash: toHex(paths[i]!.leaf),
      proof: paths[i]!.proof.map(toHex),
    }))
    return { size, checkpoint: await checkpointOfSize(circleId, size), proofs }
  }

  /** RFC 6962 proof that the tree of `from` entries is a prefix of the tree of `to`. */
  async function consistency(actor: TUser, circleId: string, from: number, to: number) {
    const head = await tiledHead(actor, circleId)
    if (from < 1 || from > to || to > head.size)
      throw new AppError('VALIDATION_ERROR', MESSAGES.ledgerBadProofRange)
    const proof = await head.tree(to).consistencyProof(from)
    return { from, to, proof: proof.map(toHex), checkpoint: await checkpointOfSize(circleId, to) }
  }

  /**
   * The RFC 6962 consistency proof between two sizes of a circle's log, from its tiles, with no access
   * check: for the outside witnesses' add-checkpoint (issue 29), never for an API caller.
   */
  async function consistencyFromTiles(circleId: string, from: number, to: number): Promise<Uint8Array[]> {
    const head = await repo.headOf(ctx.db, circleId)
    if (!head || from < 1 || from > to || to > head.size) throw new Error('no such range of the log')
    await ensureTiles(circleId, head)
    return tiledTree(to, tileReader(ctx.db, circleId)).consistencyProof(from)
  }

  /**
   * A tile of the circle's tree (C2SP tlog-tiles, issue 29): `tile/<L>/<N>[.p/<W>]` for members. Only
   * tiles of trees the log has had: a full tile once its 256 hashes exist, a partial one up to the width
   * the level has. Entry bundles are `entryBundle`'s.
   */
  async function tile(actor: TUser, circleId: string, path: string): Promise<{ bytes: Buffer }> {
    const head = await tiledHead(actor, circleId)
    const wanted = parseTilePath(path)
    if (!wanted || wanted.level === 'entries') throw new AppError('NOT_FOUND', MESSAGES.ledgerNoSuchTile)
    const levelSize = Math.floor(head.size / TILE_WIDTH ** wanted.level)
    if (wanted.index * TILE_WIDTH + wanted.width > levelSize)
      throw new AppError('NOT_FOUND', MESSAGES.ledgerNoSuchTile)
    const [bytes] = await tileReader(ctx.db, circleId)([wanted])
    return { bytes: Buffer.from(bytes!) }
  }

  /**
   * An entry bundle of the circle's log (C2SP tlog-tiles, `tile/entries/<N>[.p/<W>]`) for members: the
   * leaf bytes of entries N·256 … N·256+W−1, each with its uint16 length. A redacted v1/v2 block's leaf
   * bytes held the name and are gone (docs/decisions/0034): its entry is empty, which no leaf is, and
   * the leaf hash in the level-0 tile stands for it (docs/decisions/0061).
   */
  async function entryBundle(actor: TUser, circleId: string, path: string): Promise<{ bytes: Buffer }> {
    await requireMember(ctx.db, circleId, actor)
    const size = (await repo.headOf(ctx.db, circleId))?.size ?? 0
    const wanted = parseTilePath(path)
    if (!wanted || wanted.level !== 'entries') throw new AppError('NOT_FOUND', MESSAGES.ledgerNoSuchTile)
    const first = wanted.index * TILE_WIDTH
    if (first + wanted.width > size) throw new AppError('NOT_FOUND', MESSAGES.ledgerNoSuchTile)
    const rows = await repo.chainPage(ctx.db, circleId, first - 1, wanted.width, first + wanted.width)
    const entries = rows.map((row) => {
      const block = storedBlockOf(row)
      return block.redacted ? new Uint8Array(0) : blockBytes(block.content)
    })
    return { bytes: Buffer.from(entryBundleOf(entries)) }
  }

  /**
   * The circle's log for offline checking, as JSON lines: a header (origin, keys), every block (its
   * leaf bytes, base64, and hash; commitments only, never a comment or secret), every checkpoint.
   *
   * One consistent cut, the log as it was when the head's size was read: blocks are append-only, and
   * each append writes its block, the head's size and the checkpoint of that size in one transaction,
   * so every block below that size and every checkpoint up to it are committed and never change.
   * Appends landing while the export streams are left out, without holding a transaction (and on
   * PGlite the whole database) open for as long as a slow client downloads (docs/decisions/0022).
   */
  async function* exportLog(actor: TUser, circleId: string): AsyncGenerator<string> {
    await requireMemberForLogRead(actor, circleId)
    const head = await repo.headOf(ctx.db, circleId)
    const size = head?.size ?? 0
    // Issue 29: each checkpoint with its cosignatures, and the cosigners' keys in the header, so the
    // cosignatures can be checked offline too (docs/decisions/0064).
    const cosignatures = size > 0 ? await witnessRepo.cosignaturesOfLog(ctx.db, circleId, 1, size) : []
    const cosignedLines = linesBySize(cosignatures)
    const header = {
      type: 'log',
      origin: originOf(circleId, head?.checkpoint),
      keys: signer.verifierKeys,
      cosigners: cosignerKeys(cosignatures, ctx.config.ledgerWitnesses.witnesses),
    }
    yield `${JSON.stringify(header)}\n`
    let after = -1
    for (;;) {
      const page = await repo.chainPage(ctx.db, circleId, after, VERIFY_PAGE, size)
      for (const row of page) {
        const { id, height, hash } = row
        const block = storedBlockOf(row)
        // A redacted v1/v2 block has no leaf bytes (they held the name): its content with the name
        // null and the marker instead. A v3 block's names and salts go beside its leaf (docs/decisions/0034).
        const line = block.redacted
          ? { type: 'block', id, height, hash, redacted: block.redacted, content: block.content }
          : {
              type: 'block',
              id,
              height,
              hash,
              leaf: Buffer.from(blockBytes(block.content)).toString('base64'),
              ...(block.names ? { names: block.names } : {}),
            }
        yield `${JSON.stringify(line)}\n`
      }
      if (page.length < VERIFY_PAGE) break
      after = page.at(-1)!.height
    }
    for (const checkpoint of await repo.checkpointsOf(ctx.db, circleId)) {
      if (checkpoint.size > size) break
      const note = addSignatureLines(checkpoint.note, cosignedLines.get(checkpoint.size) ?? [])
      yield `${JSON.stringify({ type: 'checkpoint', size: checkpoint.size, note })}\n`
    }
  }

  /**
   * The item's last holder with complete ownership from its confirmed history: the receiver of the
   * newest block that gave complete ownership, else its creator (docs/decisions/0027).
   */
  async function lastCompleteHolder(
    tx: Executor,
    circleId: string,
    item: { id: string; createdById: string | null },
  ) {
    return (await repo.lastCompleteReceiver(tx, circleId, item.id)) ?? item.createdById
  }

  return {
    lockCircle,
    lastCompleteHolder,
    list,
    listCircle,
    listItem,
    get,
    verify,
    keys,
    checkpoint,
    inclusion,
    inclusions,
    consistency,
    consistencyFromTiles,
    tile,
    entryBundle,
    exportLog,
  }
}

export type LedgerService = ReturnType<typeof createLedgerService>

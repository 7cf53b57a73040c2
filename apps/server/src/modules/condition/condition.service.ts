import { createHash } from 'node:crypto'
import { noteCommitment, type BlockEvidence, type SideEvidence } from '@circles/ledger'
import {
  CONDITION_PHOTO_PATH_PREFIX,
  MESSAGES,
  type TConditionPhoto,
  type TConditionSide,
  type TUser,
} from '@circles/shared'
import type { AppContext } from '../../context'
import type { Executor } from '../../db/client'
import { AppError, notFound } from '../../lib/errors'
import { processImage, storedNames } from '../../lib/images'
import type { FileStore, StoredFile } from '../../lib/storage'
import * as repo from './condition.repository'
import type { ConditionPhotoRow, PhotoSide } from './condition.repository'

export type { ConditionPhotoRow, PhotoSide }

/** An upload not attached to a request or an answer within a day is removed (docs/decisions/0057). */
const UNATTACHED_TTL_MS = 24 * 60 * 60 * 1000
/** How often every instance sweeps, and how many photos one pass removes at most. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000
const SWEEP_BATCH = 200
/** Uploads start a sweep at most this often. */
const UPLOAD_SWEEP_GAP_MS = 10 * 60 * 1000

const photoNotFound = () => new AppError('VALIDATION_ERROR', MESSAGES.conditionPhotoNotFound)
const namesOf = (row: { imageId: string; imageType: 'jpg' | 'png' | 'webp' }) =>
  storedNames(row.imageId, row.imageType)

/** Where the client fetches a condition photo: the exact bytes its digest is of, and a small rendition. */
export function photoView(row: ConditionPhotoRow): TConditionPhoto {
  const [full, small] = namesOf(row)
  return {
    id: row.id,
    url: `${CONDITION_PHOTO_PATH_PREFIX}${full}`,
    thumbnailUrl: `${CONDITION_PHOTO_PATH_PREFIX}${small}`,
    sha256: row.sha256,
  }
}

/** A handover's photos by side, each in its order. */
export interface HandoverPhotos {
  sender: ConditionPhotoRow[]
  receiver: ConditionPhotoRow[]
}
const noPhotos = (): HandoverPhotos => ({ sender: [], receiver: [] })

/** The notes and 'as described' a handover row keeps (issue 28). */
export interface HandoverNotes {
  senderId: string
  senderNote: string | null
  senderNoteSalt: string | null
  receiverNote: string | null
  receiverNoteSalt: string | null
  receiverAsDescribed: boolean
}

/** A handover's condition as its views show it. */
export function conditionView(notes: HandoverNotes, photos: HandoverPhotos = noPhotos()) {
  const side = (note: string | null, rows: ConditionPhotoRow[]): TConditionSide => ({
    note,
    photos: rows.map(photoView),
  })
  return {
    sender: side(notes.senderNote, photos.sender),
    receiver: side(notes.receiverNote, photos.receiver),
    asDescribed: notes.receiverAsDescribed,
  }
}

/**
 * What a v5 block commits to (docs/decisions/0057): each person's photo digests in order and their
 * note's salted commitment, placed by person: `from` is the block's `from` (for a return the lender
 * may have started it, so the handover's sender is not always the block's `from`). Null when nobody
 * recorded anything.
 */
export function blockEvidence(
  notes: HandoverNotes,
  photos: HandoverPhotos,
  fromId: string,
): BlockEvidence | null {
  const sender: SideEvidence = {
    note: notes.senderNoteSalt ? noteCommitment(notes.senderNote, notes.senderNoteSalt) : null,
    photos: photos.sender.map((p) => p.sha256),
  }
  const receiver: SideEvidence = {
    note: notes.receiverNoteSalt ? noteCommitment(notes.receiverNote, notes.receiverNoteSalt) : null,
    photos: photos.receiver.map((p) => p.sha256),
  }
  const empty = (s: SideEvidence) => s.note === null && s.photos.length === 0
  if (empty(sender) && empty(receiver)) return null
  const senderIsFrom = notes.senderId === fromId
  return {
    asDescribed: notes.receiverAsDescribed,
    from: senderIsFrom ? sender : receiver,
    to: senderIsFrom ? receiver : sender,
  }
}

const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

export function createConditionService(ctx: AppContext, store: FileStore) {
  /** Uploads a photo: re-encoded like an item picture, stored, its digest taken now (not under a lock). */
  async function upload(actor: TUser, bytes: Buffer): Promise<TConditionPhoto> {
    await ctx.rateLimits.consume([['uploadsPerAccount', actor.id]], MESSAGES.tooManyRequests)
    const image = await processImage(bytes)
    const written = [image.full.name, image.small.name]
    try {
      await store.put(image.full.name, image.full)
      await store.put(image.small.name, image.small)
      const row = await repo.insertPhoto(ctx.db, {
        uploadedBy: actor.id,
        imageId: image.id,
        imageType: image.type,
        sha256: sha256Hex(image.full.bytes),
        size: image.full.bytes.length,
      })
      ctx.log.info({ photoId: row.id, userId: actor.id }, 'condition photo uploaded')
      return photoView(row)
    } catch (error) {
      await removeQuietly(written)
      throw error
    } finally {
      sweepNowAndThen()
    }
  }

  /** The uploader takes back a photo before sending it. */
  async function remove(actor: TUser, id: string): Promise<void> {
    const row = await repo.deleteUnattached(ctx.db, id, actor.id)
    if (!row) throw new AppError('NOT_FOUND', MESSAGES.conditionPhotoNotFound)
    await removeQuietly(namesOf(row))
  }

  /**
   * A stored photo: its uploader sees it until it is attached; then the handover's parties and the
   * members of its circle. Everyone else learns nothing (404).
   */
  async function file(actor: TUser, fileName: string): Promise<StoredFile> {
    const imageId = fileName.slice(0, 32)
    const found = await repo.findByImageId(ctx.db, imageId)
    if (!found) throw notFound()
    const { photo } = found
    const [full, small] = namesOf(photo)
    if (fileName !== full && fileName !== small) throw notFound()
    const allowed =
      photo.attachedAt === null
        ? photo.uploadedBy === actor.id
        : found.circleId !== null &&
          (found.senderId === actor.id ||
            found.receiverId === actor.id ||
            (await repo.isMember(ctx.db, found.circleId, actor.id)))
    if (!allowed) throw notFound()
    const stored = await store.get(fileName)
    if (!stored) throw notFound()
    return stored
  }

  /**
   * Attaches the actor's unattached photos, in the given order, to one side of a handover, inside the
   * caller's transaction. An id that is not theirs, unknown, or already attached: 400, nothing attached.
   */
  async function attachInTx(
    tx: Executor,
    actor: TUser,
    handoverId: string,
    side: PhotoSide,
    ids: string[],
  ): Promise<ConditionPhotoRow[]> {
    if (ids.length === 0) return []
    if (new Set(ids).size !== ids.length) throw photoNotFound()
    // An hour short of the sweep's age: a photo the sweep may be removing is not attached.
    const since = new Date(ctx.clock().getTime() - UNATTACHED_TTL_MS + 60 * 60 * 1000)
    const rows = await repo.attachAll(tx, ids, {
      uploaderId: actor.id,
      since,
      handoverId,
      side,
      at: ctx.clock(),
    })
    if (rows.length !== ids.length) throw photoNotFound()
    return rows.sort((a, b) => a.position! - b.position!)
  }

  /** The photos of these handovers, by handover and side. */
  async function photosFor(db: Executor, handoverIds: string[]): Promise<Map<string, HandoverPhotos>> {
    const map = new Map<string, HandoverPhotos>()
    for (const row of await repo.photosOfHandovers(db, [...new Set(handoverIds)])) {
      const entry = map.get(row.handoverId!) ?? noPhotos()
      entry[row.side!].push(row)
      map.set(row.handoverId!, entry)
    }
    return map
  }

  /** The SHA-256 of a photo's stored bytes now (null when the file is gone): verify compares it. */
  async function storedDigest(row: ConditionPhotoRow): Promise<string | null> {
    const stored = await store.get(namesOf(row)[0])
    return stored ? sha256Hex(stored.bytes) : null
  }

  async function removeQuietly(names: string[]) {
    if (names.length === 0) return
    await store
      .remove(names)
      .catch((error) => ctx.log.warn({ err: error }, 'could not remove condition photo files'))
  }

  /** Removes the files and rows of photos whose handover is gone and of stale uploads. */
  async function sweep(): Promise<number> {
    let removed = 0
    for (;;) {
      const rows = await repo.sweepable(
        ctx.db,
        new Date(ctx.clock().getTime() - UNATTACHED_TTL_MS),
        SWEEP_BATCH,
      )
      if (rows.length === 0) return removed
      await removeQuietly(rows.flatMap(namesOf))
      await repo.deletePhotos(
        ctx.db,
        rows.map((r) => r.id),
      )
      removed += rows.length
      if (rows.length < SWEEP_BATCH) return removed
    }
  }

  let sweeping: Promise<unknown> | undefined
  let lastSweep = 0
  /** One sweep at a time, in the background; a failure is logged, never thrown at a request. */
  function sweepSoon() {
    lastSweep = performance.now()
    sweeping ??= sweep()
      .catch((error) => ctx.log.warn({ err: error }, 'condition photo sweep failed'))
      .finally(() => {
        sweeping = undefined
      })
    return sweeping
  }

  /** After an upload: a sweep if none ran for a while (uploads come in bursts of up to 8). */
  function sweepNowAndThen() {
    if (performance.now() - lastSweep > UPLOAD_SWEEP_GAP_MS) void sweepSoon()
  }

  const timers: NodeJS.Timeout[] = []
  let unsubscribe: (() => void) | undefined
  /** Sweeps a minute after start (not in the way of the first requests), after every deleted item, and hourly. */
  function start() {
    unsubscribe = ctx.events.subscribe('item.deleted', () => void sweepSoon())
    timers.push(
      setTimeout(() => void sweepSoon(), 60_000),
      setInterval(() => void sweepSoon(), SWEEP_INTERVAL_MS),
    )
    for (const timer of timers) timer.unref()
  }
  async function stop() {
    for (const timer of timers) clearTimeout(timer)
    unsubscribe?.()
    await sweeping
  }

  return { upload, remove, file, attachInTx, photosFor, storedDigest, sweep, sweepSoon, start, stop }
}

export type ConditionService = ReturnType<typeof createConditionService>

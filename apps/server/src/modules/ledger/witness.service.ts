import { createPublicKey, verify } from 'node:crypto'
import {
  addSignatureLines,
  type Cosignature,
  cosignatureMessage,
  cosignerKeyId,
  cosignerVerifierKey,
  openCheckpoint,
  parseCheckpoint,
  parseCosignatureLine,
  parseNote,
  parseVerifierKey,
  usableCosignerKey,
} from '@circles/ledger'
import {
  LIMITS,
  MESSAGES,
  type TCircleWitnessesResponse,
  type TCosignatureRequest,
  type TUser,
  type TWitnessKey,
  type TWitnessKeyListResponse,
  type TWitnessKeyRequest,
  type TWitnessKeyResponse,
} from '@circles/shared'
import type { AppContext } from '../../context'
import { AppError } from '../../lib/errors'
import { nameFromUserAgent } from '../../lib/user-agent-name'
import type { LedgerSigner } from '../../lib/ledger-signer'
import { requireMember } from '../membership/access'
import * as ledgerRepo from './ledger.repository'
import { logOrigin } from './log-origin'
import * as repo from './witness.repository'
import type { WitnessKeyRow } from './witness.repository'

/** How far ahead of the server's clock a device's cosignature time may be (clocks differ a little). */
const FUTURE_SLACK_SECONDS = 600
/** DER prefix of an Ed25519 public key in SubjectPublicKeyInfo (RFC 8410): the 32 bytes follow. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex')

const fromBase64 = (text: string) => Uint8Array.from(Buffer.from(text, 'base64'))

/** Ed25519 with node:crypto (OpenSSL), as the server signs: no start-up cost of @noble/curves' tables. */
function verifyEd25519(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  const key = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]),
    format: 'der',
    type: 'spki',
  })
  return verify(null, message, key, signature)
}

/** A unique violation (23505) as node-postgres and PGlite report it, possibly wrapped by drizzle. */
function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } })?.cause
  return (error as { code?: string })?.code === '23505' || cause?.code === '23505'
}

/** A foreign key violation (23503): the key or the checkpoint went while the cosignature was stored. */
function isForeignKeyViolation(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } })?.cause
  return (error as { code?: string })?.code === '23503' || cause?.code === '23503'
}

/**
 * Issue 29 (docs/decisions/0059): members' devices as witnesses of their circles' logs. A device
 * registers an Ed25519 key; after checking a checkpoint it sends its cosignature (C2SP
 * tlog-cosignature), which the server keeps if it verifies over exactly a checkpoint the server signed
 * for that circle. The checkpoint is then served with every member's cosignature line.
 */
export function createWitnessService(ctx: AppContext, signer: LedgerSigner) {
  /** The key's C2SP name: LEDGER_ORIGIN (docs/decisions/0064), the account and the device (no spaces, no '+'). */
  const keyName = (userId: string, deviceId: string) =>
    `${ctx.config.ledgerOrigin}/witness/${userId}/${deviceId}`

  function view(row: WitnessKeyRow & { lastCosignedAt?: Date | null }): TWitnessKey {
    return {
      deviceId: row.deviceId,
      name: row.name,
      verifierKey: cosignerVerifierKey(row.name, fromBase64(row.publicKey)),
      label: row.label,
      createdAt: row.createdAt.toISOString(),
      lastCosignedAt: row.lastCosignedAt ? row.lastCosignedAt.toISOString() : null,
    }
  }

  /**
   * This device's key: new, the same again (answered as it is), or another one for the device (the old
   * key goes, and the cosignatures made with it). At most LIMITS.witnessKeysPerAccount devices: a new
   * device at the limit replaces the account's key used least recently (docs/decisions/0064), which
   * that device, if it is still in use, registers anew at its next check.
   */
  async function registerKey(
    actor: TUser,
    input: TWitnessKeyRequest,
    userAgent?: string,
  ): Promise<TWitnessKeyResponse> {
    const publicKey = fromBase64(input.publicKey)
    if (!usableCosignerKey(publicKey)) throw new AppError('VALIDATION_ERROR', MESSAGES.witnessKeyInvalid)
    const taken = () => new AppError('CONFLICT', MESSAGES.witnessKeyTaken)
    try {
      const { row, replaced } = await ctx.db.transaction(async (tx) => {
        await repo.lockAccount(tx, actor.id)
        const current = await repo.keyOfDevice(tx, actor.id, input.deviceId)
        if (current?.publicKey === input.publicKey) return { row: current, replaced: 0 }
        if (await repo.isKeyRegistered(tx, input.publicKey)) throw taken()
        const others = await repo.countOtherKeys(tx, actor.id, input.deviceId)
        const stale = await repo.leastRecentlyUsedKeys(
          tx,
          actor.id,
          input.deviceId,
          others - LIMITS.witnessKeysPerAccount + 1,
        )
        for (const key of stale) await repo.deleteKeyOfDevice(tx, actor.id, key.deviceId)
        if (current) await repo.deleteKeyOfDevice(tx, actor.id, input.deviceId)
        const inserted = await repo.insertKey(tx, {
          userId: actor.id,
          deviceId: input.deviceId,
          name: keyName(actor.id, input.deviceId),
          publicKey: input.publicKey,
          label: nameFromUserAgent(userAgent) ?? null,
        })
        return { row: inserted, replaced: stale.length }
      })
      ctx.log.info({ userId: actor.id, replaced }, 'witness key registered for a device')
      return { witnessKey: view(row) }
    } catch (error) {
      // Two accounts registering the same key at once: the second meets the unique index.
      if (isUniqueViolation(error)) throw taken()
      throw error
    }
  }

  async function listKeys(actor: TUser): Promise<TWitnessKeyListResponse> {
    return { witnessKeys: (await repo.keysOf(ctx.db, actor.id)).map(view) }
  }

  /** The device's key off (signing out on it, or giving it up); its cosignatures go with it. */
  async function removeKey(actor: TUser, deviceId: string): Promise<TWitnessKeyListResponse> {
    if (!(await repo.deleteKeyOfDevice(ctx.db, actor.id, deviceId)))
      throw new AppError('NOT_FOUND', MESSAGES.witnessKeyNotFound)
    ctx.log.info({ userId: actor.id }, 'witness key removed from a device')
    return listKeys(actor)
  }

  /** The current members' witness keys, for a device to check the others' cosignatures. */
  async function circleWitnesses(actor: TUser, circleId: string): Promise<TCircleWitnessesResponse> {
    await requireMember(ctx.db, circleId, actor)
    const rows = await repo.keysOfCircle(ctx.db, circleId)
    return {
      witnesses: rows.map((row) => ({
        userId: row.userId,
        memberName: row.memberName,
        name: row.name,
        verifierKey: cosignerVerifierKey(row.name, fromBase64(row.publicKey)),
      })),
    }
  }

  /** The note with the cosignature lines of the members' devices and the outside witnesses. */
  async function withCosignatures(circleId: string, size: number, note: string): Promise<string> {
    return addSignatureLines(note, await repo.cosignersLines(ctx.db, circleId, size))
  }

  /** The checkpoint's text, from a note or the text itself; undefined if it is neither. */
  function checkpointText(given: string): string | undefined {
    try {
      return given.includes('\n\n') ? parseNote(given).text : given
    } catch {
      return undefined
    }
  }

  /** The caller's cosignature line, parsed, with the caller's key it names. */
  async function ownCosignature(actor: TUser, line: string) {
    let cosignature: Cosignature
    try {
      cosignature = parseCosignatureLine(line)
    } catch {
      throw new AppError('VALIDATION_ERROR', MESSAGES.cosignatureMalformed)
    }
    const key = await repo.keyByName(ctx.db, actor.id, cosignature.name)
    const publicKey = key && fromBase64(key.publicKey)
    if (!key || !publicKey || cosignerKeyId(key.name, publicKey) !== cosignature.id)
      throw new AppError('FORBIDDEN', MESSAGES.cosignatureUnknownKey)
    return { cosignature, key, publicKey }
  }

  /** The checkpoint the server signed for the circle that `given` (a note or its text) is, exactly. */
  async function signedCheckpoint(circleId: string, given: string) {
    const wrongCheckpoint = () => new AppError('CONFLICT', MESSAGES.cosignatureWrongCheckpoint)
    const text = checkpointText(given)
    let size: number
    try {
      size = parseCheckpoint(text ?? '').size
    } catch {
      throw wrongCheckpoint()
    }
    const note = await ledgerRepo.checkpointAt(ctx.db, circleId, size)
    if (!note) throw new AppError('NOT_FOUND', MESSAGES.ledgerNoSuchCheckpoint)
    // The exact text the server signed, whatever instance (or PUBLIC_URL) signed it: its origin is the
    // log's own (docs/decisions/0064), not this instance's.
    if (parseNote(note).text !== text) {
      reportFork(circleId, size, given, logOrigin(ctx.config.ledgerOrigin, circleId, note))
      throw wrongCheckpoint()
    }
    return { size, text, note }
  }

  /**
   * A member's cosignature on a checkpoint of the circle: kept if it is made with a key of the caller's
   * and verifies over exactly the checkpoint the server signed at that size. Answers the checkpoint with
   * every cosignature on it.
   */
  async function submitCosignature(
    actor: TUser,
    circleId: string,
    input: TCosignatureRequest,
  ): Promise<{ checkpoint: string }> {
    await requireMember(ctx.db, circleId, actor)
    const line = input.cosignature.replace(/\n$/, '')
    const { cosignature, key, publicKey } = await ownCosignature(actor, line)
    const { size, text, note } = await signedCheckpoint(circleId, input.checkpoint)
    const nowSeconds = Math.floor(ctx.clock().getTime() / 1000)
    if (cosignature.timestamp > nowSeconds + FUTURE_SLACK_SECONDS)
      throw new AppError('VALIDATION_ERROR', MESSAGES.cosignatureFromFuture)
    if (!verifyEd25519(publicKey, cosignatureMessage(text, cosignature.timestamp), cosignature.signature))
      throw new AppError('VALIDATION_ERROR', MESSAGES.cosignatureInvalid)

    let kept: boolean
    try {
      const row = { circleId, size, witnessKeyId: key.id, signedAt: cosignature.timestamp, line }
      kept = await repo.insertCosignature(ctx.db, row)
    } catch (error) {
      // The key was removed (or the circle closed) in the meantime.
      if (isForeignKeyViolation(error)) throw new AppError('NOT_FOUND', MESSAGES.witnessKeyNotFound)
      throw error
    }
    if (kept) {
      ctx.log.info({ circleId, size, userId: actor.id }, 'cosignature stored')
      ctx.events.publish('ledger.cosigned', { circleId, size })
    }
    return { checkpoint: await withCosignatures(circleId, size, note) }
  }

  /**
   * A member's device holds a checkpoint of this size that this server's key signed, with another
   * text than the one stored: two histories were signed. Logged loudly (sizes only, no note).
   */
  function reportFork(circleId: string, size: number, given: string, origin: string) {
    try {
      openCheckpoint(given, signer.verifierKeys.map(parseVerifierKey), origin)
    } catch {
      return
    }
    ctx.log.error({ circleId, size }, 'a member holds another signed checkpoint of this size: split view')
  }

  return { registerKey, listKeys, removeKey, circleWitnesses, submitCosignature, withCosignatures }
}

export type WitnessService = ReturnType<typeof createWitnessService>

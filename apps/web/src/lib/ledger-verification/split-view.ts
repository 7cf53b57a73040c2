import {
  parseCheckpoint,
  parseCosignatureLine,
  parseCosignerKey,
  parseNote,
  verifyCosignature,
  type NoteKey,
} from '@circles/ledger'
import type { CircleVerification, RememberedCheckpoint, SplitView, Witness } from './verify-circle'

export type { SplitView, Witness }

/** The reasons whose received note opened but does not extend this device's memory. */
const INCONSISTENT = new Set(['fork', 'rollback', 'consistency'])

/** The signature lines of a note, as written (its own signature first). */
const signatureLines = (note: string) =>
  note
    .slice(note.lastIndexOf('\n\n') + 2)
    .split('\n')
    .filter((line) => line.length > 0)

/**
 * Reads the other devices' cosignatures on the checkpoint a check received, against their keys (never
 * this device's own: `ownName`). Unknown lines (outside witnesses, former members) are skipped. A device
 * of this same account (`ownUserId`) counts like any other, and is named as the account's own.
 */
export function findSplitView(
  result: CircleVerification,
  witnesses: readonly Witness[],
  ownName?: string,
  ownUserId?: string,
): SplitView | null {
  if (result.state === 'alarm' && !INCONSISTENT.has(result.reason)) return null
  // Tiles that do not make the signed root say nothing of which history is signed: that alarm stays.
  if (result.state === 'alarm' && (result.evidence.proof as { type?: string } | undefined)?.type === 'tiles')
    return null
  const note = result.state === 'verified' ? result.note : result.evidence.received
  let text: string
  let size: number
  try {
    text = parseNote(note).text
    size = parseCheckpoint(text).size
  } catch {
    return null
  }
  const keys = new Map<string, { witness: Witness; key: NoteKey }>()
  for (const witness of witnesses) {
    if (witness.name === ownName) continue
    try {
      keys.set(witness.name, { witness, key: parseCosignerKey(witness.verifierKey) })
    } catch {
      // A key this device cannot read vouches for nothing.
    }
  }
  for (const line of signatureLines(note)) {
    const name = line.slice(2).split(' ')[0] ?? ''
    const known = keys.get(name)
    if (!known) continue
    let valid = false
    try {
      valid = verifyCosignature(text, parseCosignatureLine(line), known.key)
    } catch {
      valid = false
    }
    const ownAccount = ownUserId !== undefined && known.witness.userId === ownUserId
    if (result.state === 'verified' && !valid)
      return { kind: 'other-root', size, witness: known.witness, ownAccount, line }
    if (result.state === 'alarm' && valid)
      return { kind: 'inconsistent', size, witness: known.witness, ownAccount, line }
  }
  return null
}

/** The check's result as the split-view alarm, with the evidence of both sides. */
export function splitViewAlarm(
  result: CircleVerification,
  split: SplitView,
  context: {
    witnesses: readonly Witness[]
    /** The log's verifier keys, and what this device remembers now (for a verified check). */
    keys: string[]
    remembered: RememberedCheckpoint | null
    detectedAt: string
  },
): CircleVerification {
  const { witnesses, keys, remembered, detectedAt } = context
  const received = result.state === 'verified' ? result.note : result.evidence.received
  const seen = result.state === 'alarm' ? result.evidence.remembered : remembered
  return {
    state: 'alarm',
    circleId: result.circleId,
    reason: 'split-view',
    seenSize: seen?.size ?? null,
    size: split.size,
    evidence: {
      kind: 'circles-ledger-evidence',
      version: 1,
      circleId: result.circleId,
      reason: 'split-view',
      detectedAt,
      keys,
      remembered: seen,
      received,
      splitView: { ...split, witnesses: witnesses.map((w) => w.verifierKey) },
    },
  }
}

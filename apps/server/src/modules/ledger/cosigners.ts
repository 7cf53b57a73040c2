import { cosignerVerifierKey } from '@circles/ledger'
import type { Executor } from '../../db/client'
import * as repo from './witness.repository'
import type { CosignatureOfLog } from './witness.repository'

/** Every cosignature line on a circle's checkpoints of `from` to `to` entries (for the exports). */
export const cosignaturesOfLog = repo.cosignaturesOfLog

/**
 * "Download my data" (docs/decisions/0064): the account's witness keys, each with the circles it
 * cosigned and how many cosignatures the server keeps. The caller is the account itself.
 */
export async function witnessKeysOfAccount(tx: Executor, userId: string) {
  const keys = await repo.keysOf(tx, userId)
  const cosigned = await repo.cosignedCirclesOf(tx, userId)
  return keys.map((key) => {
    const circles = cosigned.filter((c) => c.keyId === key.id)
    return {
      deviceId: key.deviceId,
      name: key.name,
      verifierKey: cosignerVerifierKey(key.name, Buffer.from(key.publicKey, 'base64')),
      label: key.label,
      createdAt: key.createdAt.toISOString(),
      lastCosignedAt: key.lastCosignedAt ? key.lastCosignedAt.toISOString() : null,
      cosignatureCount: circles.reduce((sum, c) => sum + c.count, 0),
      circles: circles.map((c) => ({ id: c.circleId, name: c.circleName ?? '', cosignatures: c.count })),
    }
  })
}

/**
 * The verifier keys of the cosigners whose lines are among `rows` (docs/decisions/0064): members'
 * devices from their stored public keys, outside witnesses from LEDGER_WITNESSES. What an export
 * carries so its cosignatures can be checked offline; public keys only.
 */
export function cosignerKeys(
  rows: readonly CosignatureOfLog[],
  outsideWitnesses: readonly { verifierKey: string }[],
): string[] {
  const keys = new Map<string, string>()
  for (const row of rows) {
    if (keys.has(row.name)) continue
    if (row.publicKey) keys.set(row.name, cosignerVerifierKey(row.name, Buffer.from(row.publicKey, 'base64')))
    else {
      const outside = outsideWitnesses.find((w) => w.verifierKey.split('+')[0] === row.name)
      if (outside) keys.set(row.name, outside.verifierKey)
    }
  }
  return [...keys.values()]
}

/** The lines per checkpoint size, in the order they came. */
export function linesBySize(rows: readonly CosignatureOfLog[]): Map<number, string[]> {
  const bySize = new Map<number, string[]>()
  for (const row of rows) bySize.set(row.size, [...(bySize.get(row.size) ?? []), row.line])
  return bySize
}

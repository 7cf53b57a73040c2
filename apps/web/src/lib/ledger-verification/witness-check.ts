import { getSession } from '@/lib/session'
import { rememberedCheckpoint } from './checkpoint-store'
import { cosignVerified, deviceCosignedMemory, postCosignature } from './cosign-checkpoint'
import { logApi } from './log-api'
import { findSplitView, splitViewAlarm } from './split-view'
import type { CircleVerification } from './verify-circle'
import { deviceKeyStore, witnessSigner } from './witness-key'

/**
 * This device as a witness of the circle after an online check (issue 29, docs/decisions/0063): a
 * verified checkpoint is cosigned and sent (once per size), and the other members' cosignatures on
 * what the server gave are read for a split view, which then replaces the result as the alarm.
 *
 * Neither a failed registration or submission nor a failed witness list is evidence of anything: the
 * check's own result stands then, and the next check tries again.
 */
export async function witnessCheck(
  result: CircleVerification,
  keys: string[],
  now: () => Date = () => new Date(),
): Promise<CircleVerification> {
  const userId = getSession().user?.id
  if (!userId) return result
  const { circleId } = result
  // The cosignature and the other members' keys are asked together (the check waits for the longer).
  const [members, ownName] = await Promise.all([
    logApi.witnesses(circleId).catch(() => null),
    result.state === 'verified' ? cosign(userId, result, now) : ownKeyName(userId),
  ])
  if (!members) return result
  const split = findSplitView(result, members, ownName)
  if (!split) return result
  const remembered = (await rememberedCheckpoint(circleId)) ?? null
  return splitViewAlarm(result, split, {
    witnesses: members,
    keys,
    remembered,
    detectedAt: now().toISOString(),
  })
}

/** Cosigns the verified checkpoint (once per size); the name of this device's key, if it has one. */
async function cosign(
  userId: string,
  result: Extract<CircleVerification, { state: 'verified' }>,
  now: () => Date,
): Promise<string | undefined> {
  const signer = await witnessSigner(userId).catch(() => undefined)
  if (!signer) return undefined
  await cosignVerified(result.circleId, result.note, result.size, {
    signer: async () => signer,
    post: postCosignature,
    memory: deviceCosignedMemory,
    now,
  }).catch(() => false)
  return signer.name
}

const ownKeyName = async (userId: string) => (await deviceKeyStore.get(userId).catch(() => undefined))?.name

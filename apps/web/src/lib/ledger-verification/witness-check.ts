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
  const witnesses = logApi.witnesses(circleId).catch(() => null)
  let ownName: string | undefined
  if (result.state === 'verified') {
    const signer = await witnessSigner(userId).catch(() => undefined)
    ownName = signer?.name
    if (signer) {
      await cosignVerified(circleId, result.note, result.size, {
        signer: async () => signer,
        post: postCosignature,
        memory: deviceCosignedMemory,
        now,
      }).catch(() => false)
    }
  } else {
    ownName = (await deviceKeyStore.get(userId).catch(() => undefined))?.name
  }
  const members = await witnesses
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

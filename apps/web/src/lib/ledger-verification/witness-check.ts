import { MESSAGES } from '@circles/shared'
import { ApiError } from '@/lib/api-client'
import { getSession } from '@/lib/session'
import { rememberedCheckpoint } from './checkpoint-store'
import { type CosignDeps, cosignVerified, deviceCosignedMemory, postCosignature } from './cosign-checkpoint'
import { logApi } from './log-api'
import { findSplitView, splitViewAlarm, type Witness } from './split-view'
import type { CircleVerification, RememberedCheckpoint } from './verify-circle'
import { deviceKeyStore, type WitnessSigner, witnessSigner } from './witness-key'

/** What the witness step uses: the server and this device's stores (injected in tests). */
export interface WitnessDeps {
  userId(): string | undefined
  witnesses(circleId: string): Promise<Witness[]>
  signer(userId: string): Promise<WitnessSigner>
  /** The name of this device's key for the account, if it has one (without registering it). */
  ownKeyName(userId: string): Promise<string | undefined>
  /** Drops this device's key for the account, so the next `signer` makes and registers a new one. */
  forgetKey(userId: string): Promise<void>
  post: CosignDeps['post']
  memory: CosignDeps['memory']
  remembered(circleId: string): Promise<RememberedCheckpoint | undefined>
  now(): Date
}

const onThisDevice: WitnessDeps = {
  userId: () => getSession().user?.id,
  witnesses: logApi.witnesses,
  signer: witnessSigner,
  ownKeyName: async (userId) => (await deviceKeyStore.get(userId))?.name,
  forgetKey: (userId) => deviceKeyStore.delete(userId),
  post: postCosignature,
  memory: deviceCosignedMemory,
  remembered: rememberedCheckpoint,
  now: () => new Date(),
}

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
  deps: WitnessDeps = onThisDevice,
): Promise<CircleVerification> {
  const userId = deps.userId()
  if (!userId) return result
  const { circleId } = result
  // The cosignature and the other members' keys are asked together (the check waits for the longer).
  const [members, own] = await Promise.all([
    deps.witnesses(circleId).catch(() => null),
    result.state === 'verified'
      ? cosign(userId, result, deps)
      : deps.ownKeyName(userId).then(
          (name): Cosigned => ({ name }),
          (): Cosigned => ({}),
        ),
  ])
  const checked: CircleVerification =
    result.state === 'verified' && own.error !== undefined ? { ...result, cosignError: own.error } : result
  if (!members) return checked
  const split = findSplitView(result, members, own.name, userId)
  if (!split) return checked
  return splitViewAlarm(result, split, {
    witnesses: members,
    keys,
    remembered: (await deps.remembered(circleId).catch(() => undefined)) ?? null,
    detectedAt: deps.now().toISOString(),
  })
}

/** This device's key name, if it has one, and why it could not cosign, if it could not. */
interface Cosigned {
  name?: string
  error?: string
}

/**
 * Cosigns the verified checkpoint (once per size): the name of this device's key, if it has one, and
 * why it could not cosign, if it could not.
 */
async function cosign(
  userId: string,
  result: Extract<CircleVerification, { state: 'verified' }>,
  deps: WitnessDeps,
  again = false,
): Promise<Cosigned> {
  const { post, memory, now } = deps
  try {
    const signer = await deps.signer(userId)
    try {
      await cosignVerified(result.circleId, result.note, result.size, {
        signer: async () => signer,
        post,
        memory,
        now,
      })
      return { name: signer.name }
    } catch (error) {
      // The server no longer has this device's key (removed on /profile, or replaced at the account's
      // limit; docs/decisions/0064): the device makes and registers a new one and cosigns with it, once.
      if (!again && keyGone(error)) {
        await deps.forgetKey(userId).catch(() => undefined)
        return cosign(userId, result, deps, true)
      }
      return { name: signer.name, error: messageOf(error) }
    }
  } catch (error) {
    return { error: messageOf(error) }
  }
}

const keyGone = (error: unknown) =>
  error instanceof ApiError && error.status === 403 && error.message === MESSAGES.cosignatureUnknownKey

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

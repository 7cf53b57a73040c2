import { z } from 'zod/mini'
import { named } from './common'
import { MESSAGES } from '../messages'

/**
 * Issue 29, members' devices as witnesses (docs/decisions/0059): each device keeps an Ed25519 key and
 * cosigns its circles' checkpoints (C2SP tlog-cosignature) once it has checked them.
 */

/** A device's own id (a random UUID it keeps), in a path. */
export const ZWitnessDeviceParams = z.object({ deviceId: z.uuid({ error: MESSAGES.witnessKeyNotFound }) })

/**
 * POST /api/ledger/witness-keys: this device's Ed25519 public key (32 bytes, base64). The same device
 * registering another key replaces its old one (and the cosignatures made with it).
 */
export const ZWitnessKeyRequest = z.object({
  deviceId: z.uuid(),
  publicKey: z.string().check(z.regex(/^[A-Za-z0-9+/]{43}=$/, MESSAGES.witnessKeyInvalid)),
})
export type TWitnessKeyRequest = z.infer<typeof ZWitnessKeyRequest>

/**
 * A registered witness key: its C2SP key name (given by the server) and verifier key (type 0x04); since
 * docs/decisions/0064 its label (the browser and system that registered it, or null) and when the
 * server last kept a cosignature made with it (null: none kept).
 */
export const ZWitnessKey = named(
  z.object({
    deviceId: z.string(),
    name: z.string(),
    verifierKey: z.string(),
    label: z.nullable(z.string()),
    createdAt: z.string(),
    lastCosignedAt: z.nullable(z.string()),
  }),
  'WitnessKey',
)
export type TWitnessKey = z.infer<typeof ZWitnessKey>

export const ZWitnessKeyResponse = z.object({ witnessKey: ZWitnessKey })
export type TWitnessKeyResponse = z.infer<typeof ZWitnessKeyResponse>

/**
 * GET /api/ledger/witness-keys (and DELETE …/:deviceId's answer): the caller's own devices' keys, newest
 * first.
 */
export const ZWitnessKeyListResponse = z.object({ witnessKeys: z.array(ZWitnessKey) })
export type TWitnessKeyListResponse = z.infer<typeof ZWitnessKeyListResponse>

/**
 * GET /api/ledger/:circleId/witnesses: the witness keys of the circle's current members, each with the
 * member's display name (`memberName`, docs/decisions/0064), so a device can say whose device cosigned.
 */
export const ZCircleWitnessesResponse = z.object({
  witnesses: z.array(
    z.object({ userId: z.string(), memberName: z.string(), name: z.string(), verifierKey: z.string() }),
  ),
})
export type TCircleWitnessesResponse = z.infer<typeof ZCircleWitnessesResponse>

/**
 * POST /api/ledger/:circleId/cosignatures: a member's cosignature (one signature line, `— <name>
 * <base64>`) on a checkpoint of the circle, given as the note (or its text) the device checked.
 */
export const ZCosignatureRequest = z.object({
  checkpoint: z.string().check(z.minLength(1), z.maxLength(16_384)),
  cosignature: z.string().check(z.minLength(1), z.maxLength(1024)),
})
export type TCosignatureRequest = z.infer<typeof ZCosignatureRequest>

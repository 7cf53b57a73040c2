import { cosignatureMessage, cosignerKeyId, formatCosignatureLine, parseNote } from '@circles/ledger'
import { createStore, get, set, type UseStore } from 'idb-keyval'
import { api } from '@/lib/api-client'
import type { WitnessSigner } from './witness-key'

/**
 * This device's C2SP cosignature line on a checkpoint (issue 29): signed with its witness key at
 * `timestamp` (POSIX seconds) over the checkpoint's text, as `cosign` of the ledger package writes it
 * (the signing is asynchronous here: WebCrypto).
 */
export async function cosignatureLine(note: string, signer: WitnessSigner, timestamp: number) {
  const { text } = parseNote(note)
  const signature = await signer.sign(cosignatureMessage(text, timestamp))
  const id = cosignerKeyId(signer.name, signer.publicKey)
  return formatCosignatureLine({ name: signer.name, id, timestamp, signature })
}

/** The largest size this device cosigned per circle and key (injected in tests). */
export interface CosignedMemory {
  get(key: string): Promise<number | undefined>
  set(key: string, size: number): Promise<void>
}

let store: UseStore | undefined
const cosignedStore = () => (store ??= createStore('circles-witness-cosigned', 'sizes'))
export const deviceCosignedMemory: CosignedMemory = {
  get: (key) => get<number>(key, cosignedStore()),
  set: (key, size) => set(key, size, cosignedStore()),
}

export interface CosignDeps {
  signer: () => Promise<WitnessSigner>
  post: (circleId: string, body: { checkpoint: string; cosignature: string }) => Promise<unknown>
  memory: CosignedMemory
  now?: () => Date
}

export const postCosignature = (circleId: string, body: { checkpoint: string; cosignature: string }) =>
  api.post(`/ledger/${encodeURIComponent(circleId)}/cosignatures`, body)

const running = new Map<string, Promise<boolean>>()

/**
 * Cosigns a checkpoint this device has just verified as consistent with the one it remembered, and
 * sends the cosignature to the server: once per circle and size on this device (a check run again, in
 * another tab's render or after a live event, sends nothing). True when a cosignature was sent now.
 */
export function cosignVerified(circleId: string, note: string, size: number, deps: CosignDeps) {
  const flight = `${circleId}/${size}`
  const already = running.get(flight)
  if (already) return already.then(() => false)
  const work = (async () => {
    const signer = await deps.signer()
    const key = `${signer.deviceId}/${circleId}`
    const done = await deps.memory.get(key)
    if (done !== undefined && done >= size) return false
    const seconds = Math.floor((deps.now?.() ?? new Date()).getTime() / 1000)
    const cosignature = await cosignatureLine(note, signer, seconds)
    // The text the server signed (the cosignatures on the note are not part of it).
    await deps.post(circleId, { checkpoint: parseNote(note).text, cosignature })
    await deps.memory.set(key, size)
    return true
  })().finally(() => running.delete(flight))
  running.set(flight, work)
  return work
}

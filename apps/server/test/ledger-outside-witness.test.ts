import {
  cosignaturesOf,
  parseCheckpoint,
  parseCosignerKey,
  parseNote,
  parseVerifierKey,
} from '@circles/ledger'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ledgerWitnessState } from '../src/db/schema'
import { ledgerSigner } from '../src/lib/ledger-signer'
import { addMember, createCircle, signedIn } from './support/circles'
import { createItem, handOver } from './support/handovers'
import { type TestApp, TEST_PUBLIC_URL, createTestApp } from './support/test-app'
import { startTestWitness, type TestWitness } from './support/tlog-witness'
import { currentCheckpoint } from './support/witness'

/**
 * Issue 29 (docs/decisions/0059): the server sends each circle's new checkpoints to the outside
 * witnesses of LEDGER_WITNESSES (C2SP tlog-witness add-checkpoint, with the consistency proof from the
 * size the witness cosigned last) and serves their cosignatures with the checkpoint. A witness of our
 * own runs on loopback and checks everything the specification asks of a witness.
 */
let t: TestApp
let witness: TestWitness
/** A witness that trusts another log key: it answers 403 to everything the server sends. */
let stranger: TestWitness
const signer = ledgerSigner(TEST_PUBLIC_URL, 'outside witness test key')
beforeAll(async () => {
  witness = await startTestWitness({
    name: 'witness.test/w1',
    logKeys: signer.verifierKeys.map(parseVerifierKey),
    originPrefix: 'localhost:3000/circle/',
  })
  stranger = await startTestWitness({
    name: 'witness.test/stranger',
    logKeys: ledgerSigner(TEST_PUBLIC_URL, 'another log').verifierKeys.map(parseVerifierKey),
    originPrefix: 'localhost:3000/circle/',
  })
  t = await createTestApp({
    ledgerKey: signer,
    env: {
      LEDGER_WITNESSES: `${witness.url} ${witness.verifierKey}, ${stranger.url} ${stranger.verifierKey}`,
      LEDGER_WITNESS_INTERVAL_MS: '100',
      LEDGER_WITNESS_TIMEOUT_MS: '500',
    },
  })
})
afterAll(async () => {
  await t.close()
  await witness.close()
  await stranger.close()
})

/** Waits (up to 15 s) until `check` passes. */
async function eventually(check: () => Promise<void>) {
  const until = Date.now() + 15_000
  for (;;) {
    try {
      return await check()
    } catch (error) {
      if (Date.now() > until) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

async function circleWith(n: number) {
  const ida = await signedIn(t, { name: 'Ida' })
  const ben = await signedIn(t, { name: 'Ben' })
  const circle = await createCircle(t, ida)
  await addMember(t, ida, circle.id, ben)
  const append = async (count: number) => {
    for (let i = 0; i < count; i++) await handOver(t, ida, ben, (await createItem(t, ida, circle.id)).id)
  }
  await append(n)
  return { ida, circle, append }
}

const witnessKey = () => parseCosignerKey(witness.verifierKey)
const requestsFor = (origin: string) => witness.requests.filter((r) => r.origin === origin)

describe('outside witnesses', () => {
  it('get each new checkpoint with a consistency proof and their cosignature is served with it', async () => {
    const { ida, circle, append } = await circleWith(3)
    const cosignedAt = async (size: number) => {
      const note = await currentCheckpoint(t, ida, circle.id)
      expect(parseCheckpoint(parseNote(note).text).size).toBe(size)
      expect(cosignaturesOf(note, [witnessKey()])).toHaveLength(1)
    }
    await eventually(() => cosignedAt(3))
    await append(2)
    await eventually(() => cosignedAt(5))
    const origin = `localhost:3000/circle/${circle.id}`
    expect(witness.state.get(origin)?.size).toBe(5)
    // The witness refused nothing; every request after the first carried a proof from its old size.
    const sent = requestsFor(origin)
    expect(sent.every((r) => r.status === 200)).toBe(true)
    expect(sent.filter((r) => r.old > 0).every((r) => r.proofLines > 0)).toBe(true)
    // The witness that does not trust our key refused (403), is retried later, and shows nowhere.
    expect(stranger.requests.some((r) => r.origin === origin && r.status === 403)).toBe(true)
    const served = await currentCheckpoint(t, ida, circle.id)
    expect(parseNote(served).signatures.map((line) => line.name)).toEqual(['localhost:3000', witness.name])
  })

  it('never hold up an append: a witness that hangs or fails is retried later', async () => {
    const { ida, circle, append } = await circleWith(0)
    witness.answers.push('hang', 503)
    await append(1)
    await eventually(async () => {
      const note = await currentCheckpoint(t, ida, circle.id)
      expect(cosignaturesOf(note, [witnessKey()])).toHaveLength(1)
    })
    const statuses = requestsFor(`localhost:3000/circle/${circle.id}`).map((r) => r.status)
    expect(statuses).toEqual([0, 503, 200])
  })

  it('start from the size the witness says it cosigned last (409)', async () => {
    const { ida, circle, append } = await circleWith(2)
    const cosigned = async (size: number) => {
      const note = await currentCheckpoint(t, ida, circle.id)
      expect(parseCheckpoint(parseNote(note).text).size).toBe(size)
      expect(cosignaturesOf(note, [witnessKey()])).toHaveLength(1)
    }
    await eventually(() => cosigned(2))
    // The server forgets what the witness has (a restore, say): it asks from 0, hears 2, goes on from there.
    await t.database.db.delete(ledgerWitnessState).where(eq(ledgerWitnessState.circleId, circle.id))
    await append(1)
    await eventually(() => cosigned(3))
    const origin = `localhost:3000/circle/${circle.id}`
    expect(witness.state.get(origin)?.size).toBe(3)
    // Whatever went before (size 1, then 2, or 2 at once), the last two requests are these.
    expect(
      requestsFor(origin)
        .map((r) => [r.old, r.status])
        .slice(-2),
    ).toEqual([
      [0, 409],
      [2, 200],
    ])
  })
})

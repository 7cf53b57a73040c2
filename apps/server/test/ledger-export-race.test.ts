import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifyExport } from '../../../packages/ledger/src/verify-export'
import { type SignedIn, addMember, createCircle, signedIn } from './support/circles'
import { answerHandover, createItem, pendingHandover } from './support/handovers'
import { type TestApp, createTestApp } from './support/test-app'

// The export is one consistent cut of the log: confirmations landing while it is read never give a
// checkpoint beyond the exported blocks, so every export verifies with the package's verifier.

let t: TestApp
beforeAll(async () => {
  t = await createTestApp({ poolSize: 10, env: { PLAN_LIMITS: 'off', RATE_LIMITS: 'off' } })
})
afterAll(() => t.close())

const CONFIRMATIONS = 12
const EXPORTERS = 3
const LONG_LOG = 60

async function circleWithPending(n: number) {
  const ida = await signedIn(t, { name: 'Ida' })
  const ben = await signedIn(t, { name: 'Ben' })
  const circle = await createCircle(t, ida)
  await addMember(t, ida, circle.id, ben)
  const pending = []
  for (let i = 0; i < n; i++) {
    const item = await createItem(t, ida, circle.id, `Thing ${i}`)
    pending.push(await pendingHandover(t, ida, ben, item.id))
  }
  return { ida, ben, circle, pending }
}

async function exportNow(who: SignedIn, circleId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/api/ledger/${circleId}/export`, headers: who.auth })
  expect(res.statusCode).toBe(200)
  return res.body
}

function expectVerified(text: string) {
  const result = verifyExport(text)
  expect(result.problems).toEqual([])
  expect(result.valid).toBe(true)
  // The newest checkpoint is of exactly the exported blocks.
  expect(result.checkpoint?.size ?? 0).toBe(result.blockCount)
}

describe('exporting while confirmations land', () => {
  it('every export verifies', async () => {
    const { ida, ben, circle, pending } = await circleWithPending(CONFIRMATIONS)
    // Each confirmation races exports of the log it extends (on PostgreSQL they run at once; PGlite's
    // one connection takes them in turn).
    const exports: string[] = []
    for (const handover of pending) {
      const [confirmed, ...texts] = await Promise.all([
        answerHandover(t, ben, handover.id, 'CONFIRMED'),
        ...Array.from({ length: EXPORTERS }, () => exportNow(ida, circle.id)),
      ])
      expect(confirmed.statusCode).toBe(200)
      exports.push(...texts)
    }
    exports.push(await exportNow(ida, circle.id))
    for (const text of exports) expectVerified(text)
    expect(verifyExport(exports.at(-1)!).blockCount).toBe(CONFIRMATIONS)
  })

  it('a confirmation landing while an export streams is not in it, and the export verifies', async () => {
    // Enough blocks that the export's lines fill the stream's buffers: it then waits for the reader
    // between reading the blocks and reading the checkpoints, and the confirmation lands there.
    const { ida, ben, circle, pending } = await circleWithPending(LONG_LOG + 1)
    for (const handover of pending.slice(0, LONG_LOG)) {
      expect((await answerHandover(t, ben, handover.id, 'CONFIRMED')).statusCode).toBe(200)
    }
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/ledger/${circle.id}/export`,
      headers: ida.auth,
      payloadAsStream: true,
    })
    expect(res.statusCode).toBe(200)
    const reader = res.stream()[Symbol.asyncIterator]()
    const chunks: Buffer[] = []
    const read = async () => {
      const next = await reader.next()
      if (!next.done) chunks.push(next.value as Buffer)
      return !next.done
    }
    // The blocks are being read once the first block line arrives.
    while (!Buffer.concat(chunks).toString('utf8').includes('"type":"block"')) {
      if (!(await read())) throw new Error('the export ended before its blocks')
    }
    expect((await answerHandover(t, ben, pending[LONG_LOG]!.id, 'CONFIRMED')).statusCode).toBe(200)
    while (await read());
    const text = Buffer.concat(chunks).toString('utf8')
    expectVerified(text)
    expect(verifyExport(text).blockCount).toBe(LONG_LOG)
  })
})

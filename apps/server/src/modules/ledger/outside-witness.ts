import {
  type NoteKey,
  parseCosignatureLine,
  parseCosignerKey,
  parseNote,
  verifyCosignature,
} from '@circles/ledger'
import type { AppContext } from '../../context'
import { type QueueWorker, startQueueWorker } from '../../lib/queue-worker'
import * as ledgerRepo from './ledger.repository'
import type { LedgerService } from './ledger.service'
import * as repo from './outside-witness.repository'

/** The longest wait after failures, as for push notices. */
const MAX_BACKOFF_MS = 60 * 60_000
/** The most of a witness's answer that is read: a few signature lines, or a size. */
const MAX_ANSWER_CHARS = 16_384

interface Witness {
  url: string
  key: NoteKey
}

interface Job {
  witness: Witness
  circleId: string
  /** The size the witness cosigned last, as far as the server knows (0: never). */
  old: number
  attempts: number
}

const toBase64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')

/** The body of add-checkpoint (C2SP tlog-witness): old size, proof lines, a blank line, the note. */
export function addCheckpointBody(old: number, proof: readonly Uint8Array[], note: string): string {
  return `old ${old}\n${proof.map((hash) => `${toBase64(hash)}\n`).join('')}\n${note}`
}

/**
 * Issue 29 (docs/decisions/0059): the checkpoints go to the outside witnesses of LEDGER_WITNESSES. A
 * worker (every LEDGER_WITNESS_INTERVAL_MS) leases a circle whose log has grown past what a witness
 * cosigned, sends it `add-checkpoint` with the consistency proof from the size the witness had (read
 * from the tiles), and keeps the returned cosignature; the checkpoint is then served with it. Appends
 * never wait for a witness: a witness that is slow, down or refusing only delays its own cosignature
 * (backoff up to an hour), and is logged with the circle, the witness's name and the status only.
 */
export function startOutsideWitnesses(ctx: AppContext, ledger: Pick<LedgerService, 'consistencyFromTiles'>) {
  const { witnesses: configured, timeoutMs, intervalMs } = ctx.config.ledgerWitnesses
  if (configured.length === 0) return undefined
  const witnesses: Witness[] = configured.map((w) => ({ url: w.url, key: parseCosignerKey(w.verifierKey) }))
  // A lease outlives the request it covers, so no second request for the circle goes out meanwhile.
  const leaseMs = 2 * timeoutMs + 5_000
  const backoff = (attempts: number) => Math.min(MAX_BACKOFF_MS, intervalMs * 2 ** Math.max(0, attempts - 1))
  let next = 0

  async function claim(): Promise<Job | undefined> {
    for (let i = 0; i < witnesses.length; i++) {
      const witness = witnesses[(next + i) % witnesses.length]!
      const due = await repo.claimDue(ctx.db, witness.key.name, leaseMs)
      if (due) {
        next = (next + i + 1) % witnesses.length
        return { witness, ...due }
      }
    }
    return undefined
  }

  async function handle(job: Job): Promise<void> {
    const { witness, circleId } = job
    const name = witness.key.name
    const failed = async (why: string, status?: number) => {
      ctx.log.warn({ circleId, witness: name, status, attempts: job.attempts }, `outside witness: ${why}`)
      await repo.recordFailure(ctx.db, circleId, name, backoff(job.attempts))
    }
    const head = await ledgerRepo.headOf(ctx.db, circleId)
    if (!head?.checkpoint || head.size <= job.old) return failed('nothing to send')
    const size = head.size
    const proof = job.old > 0 ? await ledger.consistencyFromTiles(circleId, job.old, size) : []
    let status: number
    let answer: string
    try {
      const response = await fetch(`${witness.url}/add-checkpoint`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: addCheckpointBody(job.old, proof, head.checkpoint),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      })
      status = response.status
      answer = (await response.text()).slice(0, MAX_ANSWER_CHARS)
    } catch {
      return failed('unreachable or too slow')
    }
    if (status === 200) {
      const text = parseNote(head.checkpoint).text
      const line = answer.split('\n').find((candidate) => cosignedBy(candidate, text, witness.key))
      if (!line) return failed('answered without a valid cosignature', status)
      await ctx.db.transaction((tx) => repo.recordCosigned(tx, { circleId, witness: name, size, line }))
      ctx.log.info({ circleId, witness: name, size }, 'outside witness cosigned the checkpoint')
      ctx.events.publish('ledger.cosigned', { circleId, size })
      return
    }
    const theirs = status === 409 ? /^(0|[1-9][0-9]{0,9})\n?$/.exec(answer) : null
    if (theirs) {
      const cosigned = Number(theirs[1])
      if (cosigned > size) {
        // The witness cosigned a larger tree of this circle than the server holds: a rollback or a fork.
        ctx.log.error({ circleId, witness: name, size, cosigned }, 'outside witness has seen a larger tree')
        return failed('has seen a larger tree', status)
      }
      if (cosigned !== job.old) return repo.recordWitnessSize(ctx.db, circleId, name, cosigned)
    }
    return failed('refused the checkpoint', status)
  }

  const worker: QueueWorker = startQueueWorker({
    name: 'outside witnesses',
    log: ctx.log,
    intervalMs,
    claim,
    handle,
  })
  return worker
}

/** Whether `line` is the witness's cosignature over the checkpoint's text. */
function cosignedBy(line: string, text: string, key: NoteKey): boolean {
  try {
    return verifyCosignature(text, parseCosignatureLine(line), key)
  } catch {
    return false
  }
}

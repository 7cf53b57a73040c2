import { type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  cosign,
  cosignerVerifierKey,
  emptyRoot,
  type NoteKey,
  openNote,
  parseCheckpoint,
  parseNote,
  verifyConsistency,
} from '@circles/ledger'
import { nowSeconds, witnessKeyPair } from './witness'

/**
 * A small witness of our own (issue 29) following C2SP tlog-witness's add-checkpoint: it trusts the
 * log's keys for the origins under `originPrefix`, keeps the latest cosigned size and root per origin,
 * checks the old size (409 with its size), the consistency proof (422), the signature (403), the origin
 * (404), and answers its Ed25519 cosignature (C2SP tlog-cosignature). `answers` makes it misbehave: a
 * status, or 'hang' (never answers: the sender's deadline must end the request).
 */
export interface TestWitness {
  url: string
  name: string
  verifierKey: string
  /** Every add-checkpoint, with the status it got. */
  requests: { origin: string; old: number; size: number; proofLines: number; status: number }[]
  /** What it has cosigned last per origin. */
  state: Map<string, { size: number; root: Uint8Array }>
  answers: (number | 'hang')[]
  close(): Promise<void>
}

const equal = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b))

export async function startTestWitness(opts: {
  name: string
  logKeys: NoteKey[]
  originPrefix: string
}): Promise<TestWitness> {
  const keys = witnessKeyPair()
  const signer = keys.signer(opts.name)
  const state = new Map<string, { size: number; root: Uint8Array }>()
  const requests: TestWitness['requests'] = []
  const answers: TestWitness['answers'] = []
  const hanging = new Set<ServerResponse>()

  function addCheckpoint(body: string): { status: number; type?: string; text: string } {
    const split = body.indexOf('\n\n')
    if (split < 0) return { status: 400, text: 'malformed\n' }
    const [oldLine = '', ...proofLines] = body.slice(0, split).split('\n')
    const note = body.slice(split + 2)
    const old = /^old (0|[1-9][0-9]*)$/.exec(oldLine)
    if (!old || proofLines.length > 63 || proofLines.some((l) => !/^[A-Za-z0-9+/]{43}=$/.test(l)))
      return { status: 400, text: 'malformed\n' }
    let text: string
    let checkpoint: ReturnType<typeof parseCheckpoint>
    try {
      text = parseNote(note).text
      checkpoint = parseCheckpoint(text)
    } catch {
      return { status: 400, text: 'malformed checkpoint\n' }
    }
    if (!checkpoint.origin.startsWith(opts.originPrefix)) return { status: 404, text: 'unknown log\n' }
    try {
      openNote(note, opts.logKeys)
    } catch {
      return { status: 403, text: 'not signed by the log\n' }
    }
    const oldSize = Number(old[1])
    const proof = proofLines.map((l) => Uint8Array.from(Buffer.from(l, 'base64')))
    if (oldSize > checkpoint.size) return { status: 400, text: 'old size beyond the checkpoint\n' }
    const known = state.get(checkpoint.origin)
    if (oldSize !== (known?.size ?? 0))
      return { status: 409, type: 'text/x.tlog.size', text: `${known?.size ?? 0}\n` }
    if (checkpoint.size === 0 && !equal(checkpoint.rootHash, emptyRoot()))
      return { status: 422, text: 'bad empty root\n' }
    if (oldSize === 0 && proof.length > 0) return { status: 422, text: 'proof from the empty tree\n' }
    if (oldSize === checkpoint.size && known && !equal(known.root, checkpoint.rootHash))
      return { status: 422, text: 'another root at the same size\n' }
    if (oldSize > 0 && oldSize < checkpoint.size) {
      const holds = verifyConsistency(oldSize, checkpoint.size, known!.root, checkpoint.rootHash, proof)
      if (!holds) return { status: 422, text: 'inconsistent\n' }
    }
    state.set(checkpoint.origin, { size: checkpoint.size, root: checkpoint.rootHash })
    return { status: 200, text: `${cosign(text, signer, nowSeconds())}\n` }
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/add-checkpoint') {
        res.writeHead(404).end()
        return
      }
      const body = Buffer.concat(chunks).toString('utf8')
      const old = Number(/^old (\d+)/.exec(body)?.[1] ?? -1)
      const [, origin = '', size = '-1'] = /\n\n([^\n]*)\n(\d+)\n/.exec(body) ?? []
      const proofLines = body.slice(0, Math.max(0, body.indexOf('\n\n'))).split('\n').length - 1
      const forced = answers.shift()
      if (forced === 'hang') {
        hanging.add(res)
        requests.push({ origin, old, size: Number(size), proofLines, status: 0 })
        return
      }
      const answer = forced === undefined ? addCheckpoint(body) : { status: forced, text: 'forced\n' }
      requests.push({ origin, old, size: Number(size), proofLines, status: answer.status })
      res.writeHead(answer.status, { 'content-type': answer.type ?? 'text/plain; charset=utf-8' })
      res.end(answer.text)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    name: opts.name,
    verifierKey: cosignerVerifierKey(opts.name, keys.publicKey),
    requests,
    state,
    answers,
    async close() {
      for (const res of hanging) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

import {
  blockHash,
  GENESIS_PREV_HASH,
  hexToHash,
  merkleTree,
  parseTilePath,
  seedSigner,
  signCheckpoint,
  tileBytes,
  verifierKey,
  type BlockContent,
} from '@circles/ledger'
import { tileProofs } from '@/lib/ledger-verification/tile-proofs'
import type { RememberedCheckpoint, ShownBlock, VerifyDeps } from '@/lib/ledger-verification/verify-circle'

// A circle's signed log as its server keeps it, and a device checking it (verify-circle.test.ts,
// tile-proofs.test.ts).
export const CIRCLE = '0b7d3c1e-5f0a-4c1e-9a55-2f1d8e9c7a10'
export const signer = seedSigner('circles.example', new Uint8Array(32).fill(7))
export const KEYS = [verifierKey(signer.name, signer.publicKey)]

export function content(height: number, prevHash: string, to = 'Ben'): BlockContent {
  return {
    v: 1,
    kind: 'HANDOVER',
    circle: { id: CIRCLE, name: 'Linden Street' },
    height,
    prevHash,
    first: height === 0,
    time: `2026-11-0${1 + (height % 9)}T10:00:00.000Z`,
    handoverId: null,
    item: { id: `item-${height}`, name: `Thing ${height}` },
    from: { id: 'ida', name: 'Ida' },
    to: { id: to.toLowerCase(), name: to },
    ownership: 'COMPLETE',
    commitments: { requesterComment: null, receiverComment: null, secretMessage: null },
  }
}

/** A server's log of `size` blocks; `rewrite` replaces the content of one height (and re-signs). */
export function log(size: number, rewrite?: { height: number; to: string }) {
  const blocks: ShownBlock[] = []
  for (let h = 0; h < size; h++) {
    const prev = h === 0 ? GENESIS_PREV_HASH : blocks[h - 1]!.hash
    const c = content(h, prev, rewrite?.height === h ? rewrite.to : 'Ben')
    blocks.push({ id: `block-${h}`, hash: blockHash(c), content: c })
  }
  const tree = merkleTree(blocks.map((b) => hexToHash(b.hash)))
  const note = (n: number) =>
    signCheckpoint(
      { origin: `circles.example/circle/${CIRCLE}`, size: n, rootHash: tree.root(n), extensions: [] },
      signer,
    )
  return { blocks, tree, note }
}

/**
 * The device's memory and the server's answers, for the log `server`: its checkpoint, and its tiles
 * (the byte at 5 of the tile `tamper` names flipped), from which the device builds its proofs and keeps
 * the full ones in `kept`.
 */
export function device(
  server: Pick<ReturnType<typeof log>, 'blocks' | 'note'>,
  memory = new Map<string, RememberedCheckpoint>(),
  { kept = new Map<string, Uint8Array>(), tamper }: { kept?: Map<string, Uint8Array>; tamper?: string } = {},
) {
  const size = server.blocks.length
  const leaves = server.blocks.map((b) => hexToHash(b.hash))
  const fetched: string[] = []
  const deps: VerifyDeps = {
    keys: KEYS,
    checkpoint: async () => server.note(size),
    ...tileProofs({
      fetchTile: async (_circle, path) => {
        fetched.push(path)
        const bytes = tileBytes(leaves, parseTilePath(path)!)
        if (path === tamper) bytes[5]! ^= 1
        return bytes
      },
      kept: async (keys) => keys.map((key) => kept.get(key)),
      keep: async (entries) => entries.forEach(([key, data]) => kept.set(key, data)),
      keyOf: (circle, path) => `${circle}/${path}`,
    }),
    remembered: async (id) => memory.get(id),
    remember: async (c) => void memory.set(c.circleId, c),
  }
  return { deps, memory, kept, fetched }
}

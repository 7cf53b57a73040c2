import {
  blockHash,
  GENESIS_PREV_HASH,
  hashToHex,
  hexToHash,
  merkleTree,
  nameCommitment,
  publicKeyOf,
  signCheckpoint,
  verifierKey,
  type BlockContent,
} from '@circles/ledger'
import { describe, expect, it } from 'vitest'
import { conditionBlock } from '@/test/condition-block'
import { CIRCLE, content, device, log, signer } from '@/test/ledger-device'
import { type RememberedCheckpoint, type ShownBlock, verifyCircle } from './verify-circle'

describe('verifying a circle on this device', () => {
  it('verifies a first visit and a grown log, remembering the newest checkpoint', async () => {
    const first = device(log(5))
    const result = await verifyCircle(CIRCLE, log(5).blocks, first.deps)
    expect(result).toMatchObject({ state: 'verified', size: 5 })
    expect(first.memory.get(CIRCLE)?.size).toBe(5)

    const later = device(log(9), first.memory)
    expect(await verifyCircle(CIRCLE, log(9).blocks.slice(6), later.deps)).toMatchObject({
      state: 'verified',
      size: 9,
    })
    expect(later.memory.get(CIRCLE)?.size).toBe(9)
  })

  it('verifies a v5 block with condition evidence like every older version, and catches a swapped digest', async () => {
    const older = log(3).blocks
    const v5 = conditionBlock()
    const blocks: ShownBlock[] = [
      ...older,
      { id: v5.id, hash: v5.hash, content: v5.content, names: v5.names },
    ]
    const tree = merkleTree(blocks.map((b) => hexToHash(b.hash)))
    const note = (n: number) =>
      signCheckpoint(
        { origin: `circles.example/circle/${CIRCLE}`, size: n, rootHash: tree.root(n), extensions: [] },
        signer,
      )
    const server = { blocks, tree, note }
    expect(await verifyCircle(CIRCLE, blocks, device(server).deps)).toMatchObject({
      state: 'verified',
      size: 4,
    })

    // The operator puts another photo's digest into the stored content and keeps the hash.
    const content = structuredClone(v5.content) as Extract<BlockContent, { v: 5 }>
    content.evidence!.from.photos[0] = 'e'.repeat(64)
    const swapped = { ...blocks[3]!, content }
    expect(await verifyCircle(CIRCLE, [swapped], device(server).deps)).toMatchObject({
      state: 'alarm',
      reason: 'hash',
    })
  })

  it('raises the alarm on a rewritten history, keeping both signed checkpoints as evidence', async () => {
    const { memory } = device(log(6))
    await verifyCircle(CIRCLE, [], device(log(6), memory).deps)
    const seen = memory.get(CIRCLE)!

    // Same size, another root: the operator rewrote block 4 and re-signed.
    const forked = log(6, { height: 4, to: 'Mallory' })
    const fork = await verifyCircle(CIRCLE, forked.blocks, device(forked, memory).deps)
    expect(fork).toMatchObject({ state: 'alarm', reason: 'fork' })
    if (fork.state !== 'alarm') throw new Error('unreachable')
    expect(fork.evidence.remembered?.note).toBe(seen.note)
    expect(fork.evidence.received).toBe(forked.note(6))
    expect(memory.get(CIRCLE)).toEqual(seen)

    // Grown after a rewrite: the consistency proof cannot hold.
    const grown = log(8, { height: 2, to: 'Mallory' })
    expect(await verifyCircle(CIRCLE, [], device(grown, memory).deps)).toMatchObject({
      reason: 'consistency',
    })
    // Shrunk: a rollback.
    expect(await verifyCircle(CIRCLE, [], device(log(4), memory).deps)).toMatchObject({ reason: 'rollback' })
    expect(memory.get(CIRCLE)).toEqual(seen)
  })

  it('refuses a bad signature, a block not in the tree and a block whose content was changed', async () => {
    const server = log(4)
    const unsigned = device(server)
    unsigned.deps.checkpoint = async () => server.note(4).replace(/— .*$/m, '— circles.example AAAAAAAA')
    expect(await verifyCircle(CIRCLE, [], unsigned.deps)).toMatchObject({ reason: 'signature' })

    const other = device(server)
    other.deps.keys = [verifierKey('circles.example', publicKeyOf(new Uint8Array(32).fill(9)))]
    expect(await verifyCircle(CIRCLE, [], other.deps)).toMatchObject({ reason: 'signature' })

    // A block the server shows but never logged: its hash is not in the signed tree.
    const stray = log(4, { height: 3, to: 'Mallory' }).blocks[3]!
    expect(await verifyCircle(CIRCLE, [stray], device(server).deps)).toMatchObject({ reason: 'inclusion' })

    const edited = {
      ...server.blocks[1]!,
      content: { ...server.blocks[1]!.content, to: { id: 'x', name: 'X' } } as BlockContent,
    }
    expect(await verifyCircle(CIRCLE, [edited], device(server).deps)).toMatchObject({ reason: 'hash' })
  })

  it('checks the checkpoint delivered with the blocks without asking, unless it is older than what it remembers', async () => {
    const server = log(7)
    const asked: number[] = []
    const at = (memory?: Map<string, RememberedCheckpoint>) => {
      const { deps } = device(server, memory)
      deps.checkpoint = async () => (asked.push(7), server.note(7))
      return deps
    }
    // Delivered with the page's blocks: checked and remembered, the server not asked.
    const { memory } = device(server)
    const first = await verifyCircle(CIRCLE, server.blocks.slice(0, 5), {
      ...at(memory),
      delivered: server.note(5),
    })
    expect(first).toMatchObject({ state: 'verified', size: 5, note: server.note(5) })
    expect(asked).toEqual([])
    // A delivered answer smaller than what the device verified since (a cached page): no rollback,
    // the server's newest is asked and checked.
    await verifyCircle(CIRCLE, [], at(memory))
    expect(memory.get(CIRCLE)?.size).toBe(7)
    asked.length = 0
    const cached = await verifyCircle(CIRCLE, server.blocks.slice(0, 5), {
      ...at(memory),
      delivered: server.note(5),
    })
    expect(cached).toMatchObject({ state: 'verified', size: 7 })
    expect(asked).toEqual([7])
    // What the delivered answer proves is what any answer proves: a rewritten one is the alarm.
    const forked = log(7, { height: 2, to: 'Mallory' })
    const fork = await verifyCircle(CIRCLE, [], { ...at(memory), delivered: forked.note(7) })
    expect(fork).toMatchObject({ state: 'alarm', reason: 'fork' })
    if (fork.state === 'alarm') expect(fork.evidence.received).toBe(forked.note(7))
    // A receipt's checkpoint comes before a delivered one.
    const receipt = {
      blockId: server.blocks[6]!.id,
      index: 6,
      size: 7,
      leafHash: server.blocks[6]!.hash,
      proof: server.tree.inclusionProof(6, 7).map(hashToHex),
      checkpoint: server.note(7),
    }
    expect(await verifyCircle(CIRCLE, [], { ...at(memory), delivered: 'not a note' }, receipt)).toMatchObject(
      {
        state: 'verified',
        size: 7,
      },
    )
  })

  it("keeps a confirmation's receipt: its block proven in the signed tree that extends what was seen", async () => {
    const { memory } = device(log(5))
    await verifyCircle(CIRCLE, [], device(log(5), memory).deps)
    const server = log(6)
    const receipt = {
      blockId: server.blocks[5]!.id,
      index: 5,
      size: 6,
      leafHash: server.blocks[5]!.hash,
      proof: server.tree.inclusionProof(5, 6).map(hashToHex),
      checkpoint: server.note(6),
    }
    // A wrong leaf or a proof against another size is refused, and nothing is remembered.
    const wrongLeaf = { ...receipt, leafHash: server.blocks[4]!.hash }
    expect(await verifyCircle(CIRCLE, [], device(server, memory).deps, wrongLeaf)).toMatchObject({
      reason: 'inclusion',
    })
    const wrongSize = { ...receipt, size: 5, proof: server.tree.inclusionProof(4, 5).map(hashToHex) }
    expect(await verifyCircle(CIRCLE, [], device(server, memory).deps, wrongSize)).toMatchObject({
      reason: 'inclusion',
    })
    expect(memory.get(CIRCLE)?.size).toBe(5)

    // The receipt's checkpoint is the one checked, whatever the server's newest is.
    const later = device(log(9), memory)
    expect(await verifyCircle(CIRCLE, [], later.deps, receipt)).toMatchObject({ state: 'verified', size: 6 })
    expect(memory.get(CIRCLE)?.note).toBe(receipt.checkpoint)

    // A receipt from a rewritten history does not extend what this device saw.
    const forked = log(7, { height: 2, to: 'Mallory' })
    const forkedReceipt = {
      ...receipt,
      index: 6,
      size: 7,
      leafHash: forked.blocks[6]!.hash,
      proof: forked.tree.inclusionProof(6, 7).map(hashToHex),
      checkpoint: forked.note(7),
    }
    expect(await verifyCircle(CIRCLE, [], device(forked, memory).deps, forkedReceipt)).toMatchObject({
      reason: 'consistency',
    })
    expect(memory.get(CIRCLE)?.size).toBe(6)
  })
})

/**
 * Issue 24 (docs/decisions/0034): after a member deleted their account, the blocks about them come
 * redacted (v1/v2: name null, no bytes to hash) or with their kept name erased (v3). The device's
 * checkpoint from before the erasure must still be extended, and every shown block proven in the tree.
 */
describe('verifying a ledger with erased names on this device', () => {
  const salt = 'ab'.repeat(16)
  /** Blocks 0-2 as v1, blocks 3-4 as v3, each naming Erika as receiver. */
  function mixed() {
    const blocks: ShownBlock[] = []
    for (let h = 0; h < 5; h++) {
      const prev = h === 0 ? GENESIS_PREV_HASH : blocks[h - 1]!.hash
      const v1 = content(h, prev, 'Erika')
      const c: BlockContent =
        h < 3
          ? v1
          : {
              ...v1,
              v: 3,
              kind: 'HANDOVER',
              reason: null,
              from: { id: 'ida', nameCommitment: nameCommitment('Ida', salt) },
              to: { id: 'erika', nameCommitment: nameCommitment('Erika', salt) },
            }
      const names = { from: { name: 'Ida', salt }, to: { name: 'Erika', salt } }
      blocks.push({ id: `block-${h}`, hash: blockHash(c), content: c, ...(h >= 3 ? { names } : {}) })
    }
    const tree = merkleTree(blocks.map((b) => hexToHash(b.hash)))
    const note = (n: number) =>
      signCheckpoint(
        { origin: `circles.example/circle/${CIRCLE}`, size: n, rootHash: tree.root(n), extensions: [] },
        signer,
      )
    return { blocks, tree, note }
  }
  /** The same log as served after Erika was erased. */
  function erased(server: ReturnType<typeof mixed>): ShownBlock[] {
    return server.blocks.map((b) =>
      b.content.v === 3
        ? { ...b, names: { ...b.names!, to: { name: null, salt: null } } }
        : {
            ...b,
            content: { ...b.content, to: { id: 'erika', name: null } } as BlockContent,
            redacted: ['to'],
          },
    )
  }

  it('verifies the redacted and erased blocks against the checkpoint remembered before', async () => {
    const server = mixed()
    const { memory } = device(server)
    expect(await verifyCircle(CIRCLE, server.blocks, device(server, memory).deps)).toMatchObject({
      state: 'verified',
      size: 5,
    })
    const shown = erased(server)
    expect(JSON.stringify(shown)).not.toContain('Erika')
    expect(await verifyCircle(CIRCLE, shown, device(server, memory).deps)).toMatchObject({
      state: 'verified',
      size: 5,
    })
  })

  it('raises the alarm on a wrong name beside a v3 block, and on a redacted block not in the tree', async () => {
    const server = mixed()
    const shown = erased(server)
    const wrongName = { ...shown[4]!, names: { ...shown[4]!.names!, from: { name: 'Mallory', salt } } }
    expect(await verifyCircle(CIRCLE, [wrongName], device(server).deps)).toMatchObject({ reason: 'hash' })
    const moved = { ...shown[1]!, hash: shown[2]!.hash }
    expect(await verifyCircle(CIRCLE, [moved], device(server).deps)).toMatchObject({ reason: 'inclusion' })
    const unmarked = { ...shown[1]!, redacted: undefined }
    expect(await verifyCircle(CIRCLE, [unmarked], device(server).deps)).toMatchObject({ reason: 'hash' })
  })
})

import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  appendLeaf,
  consistencyProof,
  emptyFrontier,
  emptyRoot,
  frontierRoot,
  inclusionProof,
  inclusionVerifier,
  leafHash,
  merkleTree,
  nodeHash,
  rootHash,
  verifyConsistency,
  verifyInclusion,
} from './merkle'

// transparency-dev/merkle's vectors (Apache-2.0, testdata/rfc6962/LICENSE): an independent implementation.
const VECTORS = fileURLToPath(new URL('../testdata/rfc6962/', import.meta.url))
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const b64 = (text: string | null) => new Uint8Array(Buffer.from(text ?? '', 'base64'))

const { leafInputsHex, rootHashHexBySize } = JSON.parse(
  readFileSync(path.join(VECTORS, 'leaves-and-roots.json'), 'utf8'),
) as { leafInputsHex: string[]; rootHashHexBySize: string[] }
const leaves = leafInputsHex.map((input) => leafHash(new Uint8Array(Buffer.from(input, 'hex'))))

function vectorFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name)
    return statSync(file).isDirectory() ? vectorFiles(file) : name.endsWith('.json') ? [file] : []
  })
}

const label = (file: string) => path.relative(VECTORS, file)

describe('RFC 6962 Merkle tree', () => {
  it('computes the root of every tree size 0..8', () => {
    expect(hex(emptyRoot())).toBe(rootHashHexBySize[0])
    for (let size = 0; size <= leaves.length; size++) {
      expect(hex(rootHash(leaves.slice(0, size))), `size ${size}`).toBe(rootHashHexBySize[size])
    }
  })

  const inclusion = vectorFiles(path.join(VECTORS, 'inclusion')).map((file) => ({
    file,
    v: JSON.parse(readFileSync(file, 'utf8')) as {
      leafIdx: number
      treeSize: number
      root: string
      leafHash: string
      proof: string[] | null
      wantErr: boolean
    },
  }))

  it.each(inclusion.map(({ file, v }) => [label(file), v] as const))('inclusion %s', (_name, v) => {
    const ok = verifyInclusion(v.leafIdx, v.treeSize, b64(v.leafHash), (v.proof ?? []).map(b64), b64(v.root))
    expect(ok).toBe(!v.wantErr)
  })

  it('builds the same inclusion proofs as the vectors', () => {
    for (const { v } of inclusion.filter(({ file, v }) => !v.wantErr && !file.includes('additional'))) {
      if (v.treeSize > leaves.length) continue
      const proof = inclusionProof(v.leafIdx, leaves.slice(0, v.treeSize)).map((h) =>
        Buffer.from(h).toString('base64'),
      )
      expect(proof).toEqual(v.proof ?? [])
    }
  })

  const consistency = vectorFiles(path.join(VECTORS, 'consistency')).map((file) => ({
    file,
    v: JSON.parse(readFileSync(file, 'utf8')) as {
      size1: number
      size2: number
      root1: string
      root2: string
      proof: string[] | null
      wantErr: boolean
    },
  }))

  it.each(consistency.map(({ file, v }) => [label(file), v] as const))('consistency %s', (_name, v) => {
    const ok = verifyConsistency(v.size1, v.size2, b64(v.root1), b64(v.root2), (v.proof ?? []).map(b64))
    expect(ok).toBe(!v.wantErr)
  })

  it('builds the same consistency proofs as the vectors', () => {
    for (const { v } of consistency.filter(({ file, v }) => !v.wantErr && !file.includes('additional'))) {
      if (v.size2 > leaves.length || v.size1 === v.size2) continue
      const proof = consistencyProof(v.size1, leaves.slice(0, v.size2)).map((h) =>
        Buffer.from(h).toString('base64'),
      )
      expect(proof).toEqual(v.proof ?? [])
    }
  })

  it('verifies every proof it builds, for every tree up to 40 leaves', () => {
    const many = Array.from({ length: 40 }, (_, i) => leafHash(Uint8Array.of(i, i * 7)))
    for (let size = 1; size <= many.length; size++) {
      const tree = many.slice(0, size)
      const root = rootHash(tree)
      for (let index = 0; index < size; index++) {
        expect(verifyInclusion(index, size, tree[index]!, inclusionProof(index, tree), root)).toBe(true)
      }
      for (let first = 1; first <= size; first++) {
        const firstRoot = rootHash(tree.slice(0, first))
        expect(verifyConsistency(first, size, firstRoot, root, consistencyProof(first, tree))).toBe(true)
      }
      // A changed leaf breaks every proof that covers it.
      if (size > 1) {
        expect(verifyInclusion(0, size, tree[1]!, inclusionProof(0, tree), root)).toBe(false)
      }
    }
  })
})

describe('frontier', () => {
  it('gives the same root as the whole tree after every append (sizes 0 to 70)', () => {
    const leaves = Array.from({ length: 70 }, (_, i) => leafHash(Uint8Array.of(i)))
    let frontier = emptyFrontier()
    expect(hex(frontierRoot(frontier))).toBe(hex(emptyRoot()))
    for (let n = 1; n <= leaves.length; n++) {
      frontier = appendLeaf(frontier, leaves[n - 1]!)
      expect(frontier.size).toBe(n)
      expect(frontier.nodes).toHaveLength(n.toString(2).replaceAll('0', '').length)
      expect(hex(frontierRoot(frontier)), `size ${n}`).toBe(hex(rootHash(leaves.slice(0, n))))
    }
  })
})

/**
 * A plain reference (issue 14): the tree built level by level, a lone last node promoted unchanged,
 * which is how RFC 6962's trees look from below. O(n) per root, no shared code with merkle.ts.
 */
function referenceLevels(leaves: readonly Uint8Array[]): Uint8Array[][] {
  const levels = [leaves.slice()]
  while (levels.at(-1)!.length > 1) {
    const below = levels.at(-1)!
    const above: Uint8Array[] = []
    for (let i = 0; i < below.length; i += 2) {
      above.push(i + 1 < below.length ? nodeHash(below[i]!, below[i + 1]!) : below[i]!)
    }
    levels.push(above)
  }
  return levels
}
const referenceRoot = (leaves: readonly Uint8Array[]) =>
  leaves.length === 0 ? emptyRoot() : referenceLevels(leaves).at(-1)![0]!
function referencePath(index: number, leaves: readonly Uint8Array[]): Uint8Array[] {
  const path: Uint8Array[] = []
  for (const level of referenceLevels(leaves).slice(0, -1)) {
    const sibling = index ^ 1
    if (sibling < level.length) path.push(level[sibling]!)
    index = Math.floor(index / 2)
  }
  return path
}

describe('against a plain reference, for random trees (fast-check)', () => {
  const ceilLog2 = (n: number) => (n <= 1 ? 0 : Math.ceil(Math.log2(n)))
  const flip = (hash: Uint8Array, bit: number) => {
    const copy = hash.slice()
    copy[(bit >> 3) % copy.length]! ^= 1 << (bit & 7)
    return copy
  }
  const treeOf = (size: number, seed: number) =>
    Array.from({ length: size }, (_, i) => leafHash(Uint8Array.of(i & 255, i >> 8, seed & 255)))

  it('gives the reference root and audit path, and its proofs verify within the size bounds', async () => {
    const fc = await import('fast-check')
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), fc.nat(), fc.nat(), fc.nat(), (size, seed, a, b) => {
        const leaves = treeOf(size, seed)
        const tree = merkleTree(leaves)
        expect(hex(tree.root())).toBe(hex(referenceRoot(leaves)))
        if (size === 0) return
        const index = a % size
        const proof = tree.inclusionProof(index)
        expect(proof.map(hex)).toEqual(referencePath(index, leaves).map(hex))
        expect(proof.length).toBeLessThanOrEqual(ceilLog2(size))
        expect(verifyInclusion(index, size, leaves[index]!, proof, tree.root())).toBe(true)
        const from = 1 + (b % size)
        const consistency = tree.consistencyProof(from)
        expect(consistency.length).toBeLessThanOrEqual(ceilLog2(size) + 1)
        const oldRoot = referenceRoot(leaves.slice(0, from))
        expect(verifyConsistency(from, size, oldRoot, tree.root(), consistency)).toBe(true)
      }),
      { numRuns: 300 },
    )
  })

  it('checks many audit paths of one tree together as each alone, in any order (inclusionVerifier)', async () => {
    const fc = await import('fast-check')
    const damage = fc.constantFrom('none', 'leaf', 'flip', 'drop', 'add')
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), damage, fc.nat()), { minLength: 1, maxLength: 40 }),
        (size, seed, asks) => {
          const leaves = treeOf(size, seed)
          const tree = merkleTree(leaves)
          const verify = inclusionVerifier(size, tree.root())
          for (const [a, kind, bit] of asks) {
            const index = a % size
            let [leaf, proof] = [leaves[index]!, tree.inclusionProof(index)]
            if (kind === 'leaf') leaf = flip(leaf, bit)
            if (kind === 'flip' && proof.length > 0)
              proof = proof.map((h, i) => (i === bit % proof.length ? flip(h, bit) : h))
            if (kind === 'drop' && proof.length > 0) proof = proof.filter((_, i) => i !== bit % proof.length)
            if (kind === 'add') proof = [...proof, leaves[0]!]
            const alone = verifyInclusion(index, size, leaf, proof, tree.root())
            const together = verify(index, leaf, proof)
            // Never true for a leaf that is not the tree's at `index`; true whenever the proof alone is.
            if (together) expect(hex(leaf)).toBe(hex(leaves[index]!))
            if (alone) expect(together).toBe(true)
            if (kind === 'none') expect(together).toBe(true)
            if (kind === 'leaf') expect(together).toBe(false)
          }
          // Outside the tree, or against another root: never.
          expect(verify(size, leaves[0]!, tree.inclusionProof(0))).toBe(false)
          if (size > 1) expect(inclusionVerifier(size - 1, tree.root())(0, leaves[0]!, [])).toBe(false)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('rejects any flipped bit, dropped or added hash, and a wrong index or size', async () => {
    const fc = await import('fast-check')
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 300 }), fc.nat(), fc.nat(), fc.nat(), (size, a, b, bit) => {
        const leaves = treeOf(size, a)
        const tree = merkleTree(leaves)
        const root = tree.root()
        const index = a % size
        const proof = tree.inclusionProof(index)
        const at = bit % proof.length
        const bad = (p: Uint8Array[]) => verifyInclusion(index, size, leaves[index]!, p, root)
        expect(bad(proof.map((h, i) => (i === at ? flip(h, bit) : h)))).toBe(false)
        expect(bad(proof.filter((_, i) => i !== at))).toBe(false)
        expect(bad([...proof, leaves[0]!])).toBe(false)
        expect(verifyInclusion(index, size, flip(leaves[index]!, bit), proof, root)).toBe(false)
        expect(verifyInclusion(index, size, leaves[index]!, proof, flip(root, bit))).toBe(false)
        expect(verifyInclusion(size, size, leaves[index]!, proof, root)).toBe(false)
        // Another index may share the path only when it is the same leaf's position; here it is not.
        const other = (index + 1) % size
        expect(verifyInclusion(other, size, leaves[index]!, proof, root)).toBe(false)

        const from = 1 + (b % (size - 1)) // a proper prefix, so the proof is never empty
        const consistency = tree.consistencyProof(from)
        const oldRoot = tree.root(from)
        const ok = (p: Uint8Array[], r1 = oldRoot, r2 = root) => verifyConsistency(from, size, r1, r2, p)
        const c = bit % consistency.length
        expect(ok(consistency.map((h, i) => (i === c ? flip(h, bit) : h)))).toBe(false)
        expect(ok(consistency.filter((_, i) => i !== c))).toBe(false)
        expect(ok([...consistency, root])).toBe(false)
        expect(ok(consistency, flip(oldRoot, bit))).toBe(false)
        expect(ok(consistency, oldRoot, flip(root, bit))).toBe(false)
      }),
      { numRuns: 300 },
    )
  })
})

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
  leafHash,
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

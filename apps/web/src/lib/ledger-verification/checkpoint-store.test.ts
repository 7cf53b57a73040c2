import { describe, expect, it } from 'vitest'
import { supersedes } from './checkpoint-store'
import type { RememberedCheckpoint } from './verify-circle'

const kept: RememberedCheckpoint = {
  circleId: 'c',
  note: 'note',
  size: 5,
  rootHash: 'aa',
  verifiedAt: '2026-11-25T10:00:00.000Z',
}

describe('supersedes: what a finished check may overwrite in the device memory', () => {
  it('replaces the kept checkpoint with a larger one or the same tree checked again', () => {
    expect(supersedes({ ...kept, size: 6, rootHash: 'bb' }, kept)).toBe(true)
    expect(supersedes({ ...kept, verifiedAt: '2026-11-25T11:00:00.000Z' }, kept)).toBe(true)
  })

  it('never moves back to a smaller tree, nor swaps in another tree of the same size', () => {
    expect(supersedes({ ...kept, size: 4, rootHash: 'cc' }, kept)).toBe(false)
    expect(supersedes({ ...kept, rootHash: 'bb' }, kept)).toBe(false)
  })
})

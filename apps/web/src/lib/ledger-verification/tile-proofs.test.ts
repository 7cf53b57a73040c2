import { describe, expect, it } from 'vitest'
import { CIRCLE, device, log } from '@/test/ledger-device'
import { verifyCircle } from './verify-circle'

// 300 blocks: a full level-0 tile (tile/0/000), a partial one (tile/0/001.p/44) and the level-1 tile
// above them (tile/1/000.p/1); each is kept under its full tile's path.
const server = log(300)
const page = server.blocks.slice(10, 20)

describe('proofs built on this device from tiles (issue 29)', () => {
  it('verifies a page from tiles, keeps the tiles it checked, and fetches none of them the next time', async () => {
    const first = device(server)
    expect(await verifyCircle(CIRCLE, page, first.deps)).toMatchObject({ state: 'verified', size: 300 })
    expect(first.fetched.sort()).toEqual(['tile/0/000', 'tile/0/001.p/44', 'tile/1/000.p/1'])
    expect([...first.kept.keys()].sort()).toEqual([
      `${CIRCLE}/tile/0/000`,
      `${CIRCLE}/tile/0/001`,
      `${CIRCLE}/tile/1/000`,
    ])

    const again = device(server, first.memory, { kept: first.kept })
    expect(await verifyCircle(CIRCLE, page, again.deps)).toMatchObject({ state: 'verified', size: 300 })
    expect(again.fetched).toEqual([])
  })

  it('fetches a kept partial tile again once the tree outgrew it, and keeps the wider one', async () => {
    const first = device(server)
    await verifyCircle(CIRCLE, page, first.deps)
    const grown = log(310)
    const later = device(grown, first.memory, { kept: first.kept })
    expect(await verifyCircle(CIRCLE, grown.blocks.slice(300), later.deps)).toMatchObject({ size: 310 })
    // The level-1 tile still holds one hash (tile/0/000's): it comes from the device.
    expect(later.fetched).toEqual(['tile/0/001.p/54'])
    expect(later.kept.get(`${CIRCLE}/tile/0/001`)?.length).toBe(54 * 32)
  })

  it('fetches a tile once per check, for its consistency proof and its audit paths alike', async () => {
    const { memory } = device(log(200))
    await verifyCircle(CIRCLE, [], device(log(200), memory).deps)
    const check = device(server, memory)
    expect(await verifyCircle(CIRCLE, page, check.deps)).toMatchObject({ state: 'verified', size: 300 })
    expect(check.fetched.length).toBeGreaterThan(0)
    expect(new Set(check.fetched).size).toBe(check.fetched.length)
  })

  it('refuses a changed tile with the inclusion alarm, naming it, and keeps nothing', async () => {
    for (const tamper of ['tile/0/000', 'tile/0/001.p/44', 'tile/1/000.p/1']) {
      const check = device(server, undefined, { tamper })
      const result = await verifyCircle(CIRCLE, page, check.deps)
      expect(result).toMatchObject({ state: 'alarm', reason: 'inclusion', size: 300 })
      if (result.state !== 'alarm') throw new Error('unreachable')
      expect(result.evidence.proof).toMatchObject({ type: 'tiles', size: 300 })
      expect((result.evidence.proof as { tiles: string[] }).tiles).toContain(tamper)
      expect(check.kept.size).toBe(0)
      expect(check.memory.size).toBe(0)
    }
  })

  it('refuses a changed tile behind a consistency proof with the consistency alarm', async () => {
    const { memory } = device(log(5))
    await verifyCircle(CIRCLE, [], device(log(5), memory).deps)
    const check = device(server, memory, { tamper: 'tile/0/000' })
    expect(await verifyCircle(CIRCLE, [], check.deps)).toMatchObject({
      state: 'alarm',
      reason: 'consistency',
    })
    expect(check.kept.size).toBe(0)
    expect(memory.get(CIRCLE)?.size).toBe(5)
    // The honest tiles extend what was seen.
    expect(await verifyCircle(CIRCLE, [], device(server, memory).deps)).toMatchObject({ state: 'verified' })
    expect(memory.get(CIRCLE)?.size).toBe(300)
  })

  it('checks a kept tile each time it is used: one spoiled on the device is fetched again, not blamed on the server', async () => {
    const first = device(server)
    await verifyCircle(CIRCLE, page, first.deps)
    const good = first.kept.get(`${CIRCLE}/tile/0/000`)!.slice()
    first.kept.get(`${CIRCLE}/tile/0/000`)![7]! ^= 1
    const again = device(server, first.memory, { kept: first.kept })
    expect(await verifyCircle(CIRCLE, page, again.deps)).toMatchObject({ state: 'verified' })
    expect(again.fetched).toContain('tile/0/000')
    expect(again.kept.get(`${CIRCLE}/tile/0/000`)).toEqual(good)
  })
})

import { describe, expect, it } from 'vitest'
import { withSpecAlgorithms } from './profile'

const key = (alg: number) => ({ type: 'public-key' as const, alg })
const algorithmsOf = (algs: number[]) =>
  withSpecAlgorithms({ challenge: 'c', pubKeyCredParams: algs.map(key) }).pubKeyCredParams.map((p) => p.alg)

describe('withSpecAlgorithms (spec 000 §5)', () => {
  it('removes -8 (EdDSA)', () => {
    expect(algorithmsOf([-8, -7, -257])).toEqual([-7, -257])
    expect(algorithmsOf([-7, -8, -8, -257])).toEqual([-7, -257])
  })

  it('adds -7 and then -257 when they are missing', () => {
    expect(algorithmsOf([])).toEqual([-7, -257])
    expect(algorithmsOf([-8])).toEqual([-7, -257])
    expect(algorithmsOf([-257])).toEqual([-257, -7])
    expect(algorithmsOf([-7])).toEqual([-7, -257])
  })

  it("keeps the server's other algorithms in their order, without duplicating -7 or -257", () => {
    expect(algorithmsOf([-36, -257, -35, -7])).toEqual([-36, -257, -35, -7])
    expect(algorithmsOf([-35, -8, -36])).toEqual([-35, -36, -7, -257])
  })

  it('keeps the other options and leaves the given object unchanged', () => {
    const options = {
      challenge: 'c',
      rp: { name: 'Circles' },
      timeout: 60_000,
      pubKeyCredParams: [key(-8), key(-7)],
    }
    const result = withSpecAlgorithms(options)
    expect(result).toEqual({
      challenge: 'c',
      rp: { name: 'Circles' },
      timeout: 60_000,
      pubKeyCredParams: [key(-7), key(-257)],
    })
    expect(options.pubKeyCredParams).toEqual([key(-8), key(-7)])
    expect(result.pubKeyCredParams.every((p) => p.type === 'public-key')).toBe(true)
  })
})

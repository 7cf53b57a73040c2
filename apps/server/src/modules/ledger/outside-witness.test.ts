import { describe, expect, it } from 'vitest'
import { addCheckpointBody } from './outside-witness'

describe('add-checkpoint (C2SP tlog-witness)', () => {
  it("writes the old size, one proof hash a line, a blank line, then the note, as the spec's example", () => {
    const note =
      'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n\n— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n'
    const proof = [
      'PlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=',
      'jrJZDmY8Y7SyJE0MWLpLozkIVMSMZcD5kvuKxPC3swk=',
    ].map((line) => Uint8Array.from(Buffer.from(line, 'base64')))
    expect(addCheckpointBody(20852014, proof, note)).toBe(
      `old 20852014\nPlRNCrwHpqhGrupue0L7gxbjbMiKA9temvuZZDDpkaw=\njrJZDmY8Y7SyJE0MWLpLozkIVMSMZcD5kvuKxPC3swk=\n\n${note}`,
    )
    expect(addCheckpointBody(0, [], note)).toBe(`old 0\n\n${note}`)
  })
})

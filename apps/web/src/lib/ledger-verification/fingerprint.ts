import { parseNote } from '@circles/ledger'

const GROUPS = 6

/**
 * A circle's fingerprint (issue 29): six groups of four digits from SHA-256 over the text of the
 * checkpoint this device verified and cosigned (its signatures left out, so cosignatures arriving later
 * do not change it). Two members whose devices saw the same history of the same size read the same
 * code; about 80 bits, so a server cannot search for another history with the same one.
 */
export async function circleFingerprint(note: string): Promise<string> {
  const text = parseNote(note).text
  const digest = new DataView(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
  const groups: string[] = []
  for (let i = 0; i < GROUPS; i++) groups.push(String(digest.getUint32(i * 4) % 10_000).padStart(4, '0'))
  return groups.join(' ')
}

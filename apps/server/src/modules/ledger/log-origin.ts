import { circleOrigin, parseCheckpoint, parseNote } from '@circles/ledger'

/**
 * A circle log's C2SP origin (docs/decisions/0064): the origin of the checkpoints it already has, for
 * good, else `<LEDGER_ORIGIN>/circle/<circleId>` for a log that has none yet. So an instance under
 * another PUBLIC_URL, or a changed LEDGER_ORIGIN, goes on signing the same log under the same name, and
 * every checkpoint and cosignature made before keeps verifying.
 */
export function logOrigin(prefix: string, circleId: string, signedNote: string | null | undefined): string {
  if (signedNote) {
    try {
      return parseCheckpoint(parseNote(signedNote).text).origin
    } catch {
      // A stored note that does not parse names nothing: the configured origin.
    }
  }
  return circleOrigin(prefix, circleId)
}

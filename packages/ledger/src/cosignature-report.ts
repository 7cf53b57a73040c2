import { parseCheckpoint } from './checkpoint'
import { asCosignature, parseCosignerKey, verifyCosignature } from './cosignature'
import { NoteError, parseNote, type NoteKey } from './note'

/**
 * What the offline verifier says about the cosignatures on an export's checkpoints (issue 29,
 * docs/decisions/0064). A cosignature is a witness's statement about a checkpoint, not part of the log:
 * none of this decides whether the ledger is valid. Each cosigner is reported with how many of its
 * cosignatures verify over their checkpoint's text and how many do not; a line whose key the reader was
 * not given cannot be checked and is reported as unknown.
 */
export interface CosignerReport {
  /** The cosigner's key name, as on its lines. */
  name: string
  /** The verifier key its lines were checked with; null for an unknown cosigner. */
  key: string | null
  /** 'invalid' as soon as one of its lines does not verify; 'unknown' without its key. */
  status: 'valid' | 'invalid' | 'unknown'
  valid: number
  invalid: number
  unknown: number
  /** The largest checkpoint it validly cosigned, and its newest valid cosignature's time (ISO 8601). */
  largestSize: number | null
  newestTime: string | null
}

export interface CosignatureReport {
  cosigners: CosignerReport[]
  /** Each cosignature that does not verify (and each cosigner key that cannot be read), in words. */
  problems: string[]
}

/** Cosignatures carry 8 bytes of time before the Ed25519 signature; a note's own signature does not. */
const COSIGNATURE_BYTES = 8 + 64

/**
 * Collects the cosignature lines of checkpoint notes (`add`) against the cosigners' verifier keys
 * (C2SP tlog-cosignature, Ed25519). Lines of the log's own keys and other plain signatures are skipped.
 */
export function createCosignatureCheck(cosignerKeys: readonly string[]) {
  const problems: string[] = []
  const keys: { key: NoteKey; text: string }[] = []
  for (const text of cosignerKeys) {
    try {
      keys.push({ key: parseCosignerKey(text), text })
    } catch (error) {
      problems.push(
        `a cosigner key is malformed: ${error instanceof NoteError ? error.message : 'unreadable'}`,
      )
    }
  }
  const reports = new Map<string, CosignerReport>()
  const reportOf = (name: string, key: string | null) => {
    const id = `${name}\n${key ?? ''}`
    let report = reports.get(id)
    if (!report) {
      report = {
        name,
        key,
        status: key ? 'valid' : 'unknown',
        valid: 0,
        invalid: 0,
        unknown: 0,
        largestSize: null,
        newestTime: null,
      }
      reports.set(id, report)
    }
    return report
  }

  /** The cosignatures on one checkpoint note; `what` names it in a problem. */
  function add(note: string, what: string) {
    let parsed: ReturnType<typeof parseNote>
    let size: number
    try {
      parsed = parseNote(note)
      size = parseCheckpoint(parsed.text).size
    } catch {
      return // The checkpoint itself is reported by the ledger's check.
    }
    for (const line of parsed.signatures) {
      const known = keys.find(({ key }) => key.name === line.name && key.id === line.id)
      if (!known) {
        if (line.signature.length === COSIGNATURE_BYTES) reportOf(line.name, null).unknown++
        continue
      }
      const report = reportOf(line.name, known.text)
      let timestamp = 0
      let valid = false
      try {
        const cosignature = asCosignature(line)
        timestamp = cosignature.timestamp
        valid = verifyCosignature(parsed.text, cosignature, known.key)
      } catch {
        valid = false
      }
      if (!valid) {
        report.invalid++
        report.status = 'invalid'
        problems.push(`${what}: the cosignature of ${line.name} does not verify`)
        continue
      }
      report.valid++
      if (report.largestSize === null || size > report.largestSize) report.largestSize = size
      const time = new Date(timestamp * 1000).toISOString()
      if (report.newestTime === null || time > report.newestTime) report.newestTime = time
    }
  }

  function result(): CosignatureReport {
    return { cosigners: [...reports.values()], problems }
  }

  return { add, result }
}

import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { findPhoto } from './photos'
import { verifyDataExport } from './verify-data-export'
import { verifyExport } from './verify-export'

const USAGE = `Usage: circles-ledger verify <export.jsonl> [--key <verifier key>]... [--cosigner <verifier key>]...
                      [--trusted <checkpoint file>]

Checks a circle's ledger export (GET /api/ledger/<circleId>/export) offline: every leaf hash, the chain,
the Merkle root and signature of every checkpoint, and consistency with a checkpoint you trusted before.
A block whose names were redacted after a member deleted their account (written before encoding v3)
cannot be rehashed: its place in the chain and in the signed tree is checked, and it is counted in
redactedBlocks.
Without --key it uses the keys named in the export itself; pass the key you got from the server
(GET /api/ledger/keys) or from another member to check against a key you trust.
The checkpoints carry the cosignatures of the members' devices and outside witnesses (C2SP
tlog-cosignature): each cosigner is reported with how many of its cosignatures verify ("valid"), do
not ("invalid", also listed in cosignatures.problems) or cannot be checked without its key ("unknown").
Without --cosigner the keys named in the export are used. Cosignatures never decide the exit status.
Exits 0 only when the ledger holds.

       circles-ledger verify-data <circles-data.json> [--key <verifier key>]... [--cosigner <verifier key>]...

Checks the ledger blocks in your "Download my data" file (GET /api/users/me/export): each block's hash,
its content, and its audit path to its circle's signed checkpoint, and reports the cosignatures on
those checkpoints as verify does. Exits 0 only when the blocks hold.

       circles-ledger check-photo <export.jsonl> <photo>... [--key <verifier key>]...

Checks the export as verify does, then tells for each picture file (a condition photo you saved from
a handover) in which block it is recorded: the SHA-256 of its bytes against the digests the blocks
commit to. Exits 0 only when the export holds and every picture is one of them.`

/** Messages of the server's verify endpoint (spec 001 §8), so both print the same result shape. */
const VALID = 'The ledger is intact: every block checks out.'
/** A data export's blocks are a subset of each chain: each is checked against its circle's signed tree. */
const VALID_DATA = 'Every ledger block in your data checks out against its circle’s signed checkpoint.'
const COMPROMISED = 'The ledger has been tampered with: some blocks do not check out.'

export async function main(
  argv: string[],
  out: (text: string) => void = (text) => process.stdout.write(text),
): Promise<number> {
  const [command, file, ...args] = argv
  if ((command !== 'verify' && command !== 'verify-data' && command !== 'check-photo') || !file) {
    out(`${USAGE}\n`)
    return 2
  }
  // check-photo: the picture files come before the flags.
  const firstFlag = args.findIndex((arg) => arg.startsWith('--'))
  const photos = command === 'check-photo' ? args.slice(0, firstFlag < 0 ? args.length : firstFlag) : []
  const rest = args.slice(photos.length)
  if (command === 'check-photo' && photos.length === 0) {
    out(`${USAGE}\n`)
    return 2
  }
  const keys: string[] = []
  const cosigners: string[] = []
  let trusted: string | undefined
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]]
    if (!value) {
      out(`${USAGE}\n`)
      return 2
    }
    if (flag === '--key') keys.push(value)
    else if (flag === '--cosigner' && command !== 'check-photo') cosigners.push(value)
    else if (flag === '--trusted' && command === 'verify') {
      trusted = await readText(value, out)
      if (trusted === undefined) return 2
    } else {
      out(`${USAGE}\n`)
      return 2
    }
  }
  const text = await readText(file, out)
  if (text === undefined) return 2
  if (command === 'verify-data') {
    const data = verifyDataExport(text, {
      keys: keys.length ? keys : undefined,
      cosigners: cosigners.length ? cosigners : undefined,
    })
    out(
      `${JSON.stringify(
        {
          valid: data.valid,
          message: data.valid ? VALID_DATA : COMPROMISED,
          circleCount: data.circleCount,
          blockCount: data.blockCount,
          problems: data.problems,
          cosignatures: data.cosignatures,
        },
        null,
        2,
      )}\n`,
    )
    return data.valid ? 0 : 1
  }
  const result = verifyExport(text, {
    keys: keys.length ? keys : undefined,
    trusted,
    cosigners: cosigners.length ? cosigners : undefined,
  })
  if (command === 'check-photo') return checkPhotos(result, photos, out)
  out(
    `${JSON.stringify(
      {
        valid: result.valid,
        message: result.valid ? VALID : COMPROMISED,
        blockCount: result.blockCount,
        failingBlocks: result.failingBlocks,
        redactedBlocks: result.redactedBlocks,
        checkpoint: result.checkpoint,
        problems: result.problems,
        cosignatures: result.cosignatures,
      },
      null,
      2,
    )}\n`,
  )
  return result.valid ? 0 : 1
}

/** Each picture's SHA-256 looked up in the export's verified blocks (issue 28). */
async function checkPhotos(
  result: ReturnType<typeof verifyExport>,
  files: string[],
  out: (text: string) => void,
): Promise<number> {
  const photos = []
  for (const file of files) {
    let bytes: Buffer
    try {
      bytes = await readFile(file)
    } catch (error) {
      out(`circles-ledger: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}\n`)
      return 2
    }
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    const recordedIn = findPhoto(result.blocks, sha256).map(({ blockId, height, side, position }) => ({
      block: blockId,
      height,
      side: side === 'from' ? 'sender' : 'receiver',
      photo: position + 1,
    }))
    photos.push({ file, sha256, recorded: recordedIn.length > 0, recordedIn })
  }
  const valid = result.valid && photos.every((p) => p.recorded)
  out(
    `${JSON.stringify(
      {
        valid,
        message: !result.valid
          ? COMPROMISED
          : valid
            ? 'Every picture is a photo recorded in the ledger.'
            : 'A picture is not one of the photos recorded in the ledger.',
        photos,
        problems: result.problems,
      },
      null,
      2,
    )}\n`,
  )
  return valid ? 0 : 1
}

/** A file's text, or undefined after saying why it cannot be read (a wrong path is not a crash). */
async function readText(file: string, out: (text: string) => void) {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    out(`circles-ledger: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}\n`)
    return undefined
  }
}

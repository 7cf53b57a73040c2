import { evidenceOf, findPhoto, noteCommitment, SIDES, type CommittedPhoto, type Side } from '@circles/ledger'
import type { TBlock } from '@circles/shared'
import { hasPictureSignature } from '@/lib/picture-check'
import { getSession } from '@/lib/session'

/**
 * Condition evidence of a v5 block (issue 28, docs/decisions/0057), checked on this device: the block's
 * content (covered by its hash, which the device check proves) holds each photo's SHA-256 and each
 * note's salted commitment; the server's `evidence` beside it says where the photos are served and
 * what the notes say. Nothing the server says is taken: a photo is shown from the very bytes whose
 * SHA-256 equals the committed one, and a note only with the salt that opens its commitment.
 */

/** SHA-256 of bytes, in lower-case hex (WebCrypto: the bytes of a photo are hashed once, asynchronously). */
export async function sha256Hex(bytes: BufferSource): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** One committed photo of a block: its place, the digest the block recorded, and where it is served. */
export interface PhotoSlot {
  side: Side
  /** Its place among that side's photos, from 0 (shown as position + 1). */
  position: number
  /** The SHA-256 the block's content recorded. */
  expected: string
  /** Where the server serves it; null once the item (and its pictures) were deleted. */
  url: string | null
}

/** A note's check: it opens the block's commitment, does not, or is no longer kept (the commitment is). */
export type NoteCheck = 'ok' | 'mismatch' | 'notKept'

export interface SideEvidence {
  side: Side
  note: { text: string | null; check: NoteCheck } | null
  photos: PhotoSlot[]
}

export interface BlockConditionEvidence {
  height: number
  /** The receiver took the item 'as described' (their side records nothing of its own). */
  asDescribed: boolean
  sides: SideEvidence[]
}

/** Whether the note shown opens the commitment the block recorded for that side. */
export function checkNote(
  committed: string | null,
  kept: { note: string | null; noteSalt: string | null } | undefined,
): SideEvidence['note'] {
  const text = kept?.note ?? null
  if (committed === null) return text === null ? null : { text, check: 'mismatch' }
  if (text === null) return { text: null, check: 'notKept' }
  const opens = kept?.noteSalt ? noteCommitment(text, kept.noteSalt) === committed : false
  return { text, check: opens ? 'ok' : 'mismatch' }
}

/**
 * What a block records of the item's condition, per side, in the block's order; null when it records
 * nothing (any block before v5, and v5 blocks without evidence). Digests come from the hashed content;
 * only the urls and the notes' text and salts from the server's `evidence`.
 */
export function conditionEvidence(block: TBlock): BlockConditionEvidence | null {
  const committed = evidenceOf(block.content)
  if (!committed) return null
  return {
    height: block.content.height,
    asDescribed: committed.asDescribed,
    sides: SIDES.map((side) => {
      const kept = block.evidence?.[side]
      return {
        side,
        note: checkNote(committed[side].note, kept),
        photos: committed[side].photos.map((expected, position) => ({
          side,
          position,
          expected,
          url: kept?.photos[position]?.url ?? null,
        })),
      }
    }),
  }
}

/** How many photos a block commits to (the ledger list's indicator), and whether it records a note. */
export function conditionSummary(block: TBlock): { photos: number; notes: number } | null {
  const committed = evidenceOf(block.content)
  if (!committed) return null
  return {
    photos: SIDES.reduce((sum, side) => sum + committed[side].photos.length, 0),
    notes: SIDES.filter((side) => committed[side].note !== null).length,
  }
}

/** A photo fetched and checked: shown from `objectUrl` (its checked bytes) only when they match. */
export type PhotoProof =
  { state: 'verified'; objectUrl: string; type: string } | { state: 'mismatch'; actual: string }

/** Fetches a members-only photo with the session's token, as PrivateImage does. */
export async function fetchPhotoBytes(url: string, signal?: AbortSignal): Promise<Blob> {
  const { token } = getSession()
  const response = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal })
  if (!response.ok) throw new Error(`photo ${response.status}`)
  return response.blob()
}

/**
 * The photo's bytes hashed here and compared with the committed digest. A match is shown from those very
 * bytes (a blob URL the caller revokes), so what is seen is what was checked; other bytes are not shown.
 */
export async function provePhoto(
  slot: PhotoSlot & { url: string },
  fetchBytes: (url: string, signal?: AbortSignal) => Promise<Blob> = fetchPhotoBytes,
  signal?: AbortSignal,
): Promise<PhotoProof> {
  const blob = await fetchBytes(slot.url, signal)
  const bytes = await blob.arrayBuffer()
  const actual = await sha256Hex(bytes)
  if (actual !== slot.expected.toLowerCase()) return { state: 'mismatch', actual }
  const type = blob.type || 'image/jpeg'
  return { state: 'verified', objectUrl: URL.createObjectURL(new Blob([bytes], { type })), type }
}

/**
 * The largest file 'Check a photo' hashes. Circles keeps photos of at most 5 MB, re-encoded; anything
 * far beyond cannot be one of them, and reading it whole would only strain a phone.
 */
export const MAX_CHECKED_FILE_BYTES = 25 * 1024 * 1024

export type FileCheck =
  | { state: 'match'; sha256: string; photos: CommittedPhoto[] }
  | { state: 'noMatch'; sha256: string }
  | { state: 'notPicture' }
  | { state: 'tooLarge' }

/**
 * 'Check a photo' (issue 28): whether a file a member holds is one of the photos a block recorded,
 * hashed on this device; nothing is uploaded. A file that is no JPEG, PNG or WebP, or far too large to
 * be a photo Circles keeps, is answered without hashing.
 */
export async function checkPhotoFile(file: Blob, block: TBlock): Promise<FileCheck> {
  if (file.size > MAX_CHECKED_FILE_BYTES) return { state: 'tooLarge' }
  if (file.size === 0 || !(await hasPictureSignature(file).catch(() => false))) return { state: 'notPicture' }
  const sha256 = await sha256Hex(await file.arrayBuffer())
  const photos = findPhoto([block], sha256)
  return photos.length > 0 ? { state: 'match', sha256, photos } : { state: 'noMatch', sha256 }
}

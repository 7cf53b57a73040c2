import { blockHash, nameCommitment, noteCommitment, type BlockContent } from '@circles/ledger'
import type { TBlock } from '@circles/shared'

// Test fixtures of issue 28: a v5 block recording condition photos and notes, whose hash and
// commitments are computed as the server computes them. The photos' SHA-256s are fixed vectors
// (computed with OpenSSL), so a wrong digest in the browser code cannot agree with them by accident.

export const CIRCLE = '11111111-1111-4111-8111-111111111111'
export const BLOCK_ID = '66666666-6666-4666-8666-666666666663'
const SALT = 'ab'.repeat(16)
const NOTE_SALT = 'cd'.repeat(16)
export const SENDER_NOTE = 'Small scratch on the lid'

/** Bytes that start like a JPEG (FF D8 FF), so 'Check a photo' takes them for a picture. */
export function jpegBytes(label: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...new TextEncoder().encode(label)])
}

/** The sender's two photos and the receiver's one, as the server stores them, with their SHA-256s. */
export const PHOTOS = {
  from: [jpegBytes('sender photo 1'), jpegBytes('sender photo 2')],
  to: [jpegBytes('receiver photo 1')],
}
const DIGESTS = {
  from: [
    'a7d0070d5033786e564e730ef057e0705931ddbc400636d079eb7e45b9d8fcb6',
    '48458c96faebd05a329cc2babfea0b95e8a7cbd41d1f53427ef9be713d4d24b6',
  ],
  to: ['c392425f8400c1bb9c4187779fe2592a957a3fed2251f26599045a142b234888'],
}
export const photoUrl = (side: 'from' | 'to', i: number) =>
  `/api/handovers/photos/${side === 'from' ? 'a' : 'b'}${String(i).repeat(31)}.jpg`

/** Block #3: Ida handed the drill to Ben; both recorded its condition (v5). */
export function conditionBlock({ deleted = false }: { deleted?: boolean } = {}): TBlock {
  const content: BlockContent = {
    v: 5,
    kind: 'HANDOVER',
    circle: { id: CIRCLE, name: 'Linden Street' },
    height: 3,
    prevHash: '1'.repeat(64),
    first: false,
    time: '2026-11-20T10:00:00.000Z',
    handoverId: '22222222-2222-4222-8222-222222222223',
    item: { id: '33333333-3333-4333-8333-333333333333', name: 'Cordless drill' },
    ownership: 'COMPLETE',
    commitments: { requesterComment: null, receiverComment: null, secretMessage: null },
    reason: null,
    loan: null,
    from: { id: '44444444-4444-4444-8444-444444444444', nameCommitment: nameCommitment('Ida Owner', SALT) },
    to: { id: '55555555-5555-4555-8555-555555555555', nameCommitment: nameCommitment('Ben Neighbour', SALT) },
    evidence: {
      asDescribed: false,
      from: { note: noteCommitment(SENDER_NOTE, NOTE_SALT), photos: DIGESTS.from },
      to: { note: null, photos: DIGESTS.to },
    },
  }
  const kept = (side: 'from' | 'to') =>
    DIGESTS[side].map((sha256, i) => ({
      sha256,
      url: deleted ? null : photoUrl(side, i),
      thumbnailUrl: deleted ? null : photoUrl(side, i).replace('.jpg', '-small.webp'),
    }))
  return {
    id: BLOCK_ID,
    hash: blockHash(content),
    content,
    names: { from: { name: 'Ida Owner', salt: SALT }, to: { name: 'Ben Neighbour', salt: SALT } },
    redacted: [],
    item: null,
    comments: { requesterComment: null, receiverComment: null, secretMessage: null },
    evidence: {
      from: { note: SENDER_NOTE, noteSalt: NOTE_SALT, photos: kept('from') },
      to: { note: null, noteSalt: null, photos: kept('to') },
    },
  } as TBlock
}

import { evidenceOf, SIDES, type BlockContent, type Side } from './block'

/** One photo a block commits to (issue 28): where it is recorded and the SHA-256 of its bytes. */
export interface CommittedPhoto {
  blockId: string
  height: number
  /** `from`: the sender's photo; `to`: the receiver's. */
  side: Side
  /** Its place among that side's photos, from 0. */
  position: number
  sha256: string
}

/** Every photo digest in a block's condition evidence, sender's first, each side in its order. */
export function committedPhotos(block: { id: string; content: BlockContent }): CommittedPhoto[] {
  const evidence = evidenceOf(block.content)
  if (!evidence) return []
  return SIDES.flatMap((side) =>
    evidence[side].photos.map((sha256, position) => ({
      blockId: block.id,
      height: block.content.height,
      side,
      position,
      sha256,
    })),
  )
}

/** Where a picture with this SHA-256 is recorded among the blocks: empty when it is none of them. */
export function findPhoto(
  blocks: Iterable<{ id: string; content: BlockContent }>,
  sha256: string,
): CommittedPhoto[] {
  const wanted = sha256.toLowerCase()
  const found: CommittedPhoto[] = []
  for (const block of blocks)
    for (const photo of committedPhotos(block)) if (photo.sha256 === wanted) found.push(photo)
  return found
}

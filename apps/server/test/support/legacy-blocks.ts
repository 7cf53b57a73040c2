import { blockHash, type BlockContentV1, type BlockContentV2 } from '@circles/ledger'
import type { blocks } from '../../src/db/schema'

/**
 * The row a release before encoding v3 wrote for a v1 or v2 block (names in clear, no commitments):
 * how the tests put an older log into the database.
 */
export function legacyBlockRow(content: BlockContentV1 | BlockContentV2): typeof blocks.$inferInsert {
  return {
    circleId: content.circle.id,
    height: content.height,
    hash: blockHash(content),
    prevHash: content.prevHash,
    version: content.v,
    kind: content.kind,
    first: content.first,
    time: content.time,
    circleName: content.circle.name,
    handoverId: content.handoverId,
    itemId: content.item.id,
    itemName: content.item.name,
    fromId: content.from.id,
    fromName: content.from.name,
    toId: content.to.id,
    toName: content.to.name,
    ownership: content.ownership,
    reason: content.v === 2 ? content.reason : null,
  }
}

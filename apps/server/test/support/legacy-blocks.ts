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

/** A v1 handover block of an older log: `from` hands `item` to `to` at `height`, one second apart. */
export function legacyHandover(
  circle: { id: string; name: string },
  height: number,
  prevHash: string,
  people: { from: { id: string; name: string }; to: { id: string; name: string } },
  itemId: string,
): BlockContentV1 {
  return {
    v: 1,
    kind: 'HANDOVER',
    circle: { id: circle.id, name: circle.name },
    height,
    prevHash,
    first: height === 0,
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, height)).toISOString(),
    handoverId: null,
    item: { id: itemId, name: `Old thing ${height}` },
    from: people.from,
    to: people.to,
    ownership: 'PARTIAL',
    commitments: { requesterComment: null, receiverComment: null, secretMessage: null },
  }
}

// A circle's log as a release before encoding v3 (and before tiles) wrote it, put into the database as
// its operator could: how an e2e test gets a log of hundreds of blocks without hundreds of handovers.
import type pg from 'pg'
import { type BlockContentV1, blockHash, GENESIS_PREV_HASH } from '../../packages/ledger/src/index'

interface Person {
  id: string
  name: string
}

/**
 * `count` v1 blocks at the start of an empty circle's log (`from` handing things to `to`), and the
 * head of that size without a checkpoint: the circle's next append signs one (and writes the tiles).
 */
export async function insertOldBlocks(
  client: pg.Client,
  circle: { id: string; name: string },
  people: { from: Person; to: Person },
  count: number,
): Promise<void> {
  let prevHash = GENESIS_PREV_HASH
  await client.query('begin')
  try {
    for (let height = 0; height < count; height++) {
      const content: BlockContentV1 = {
        v: 1,
        kind: 'HANDOVER',
        circle,
        height,
        prevHash,
        first: height === 0,
        time: new Date(Date.UTC(2026, 0, 1, 0, 0, height)).toISOString(),
        handoverId: null,
        item: { id: '00000000-0000-4000-8000-000000000029', name: `Old thing ${height}` },
        from: people.from,
        to: people.to,
        ownership: 'PARTIAL',
        commitments: { requesterComment: null, receiverComment: null, secretMessage: null },
      }
      const hash = blockHash(content)
      await client.query(
        `insert into blocks (circle_id, height, hash, prev_hash, version, kind, first, time, circle_name,
           item_id, item_name, from_id, from_name, to_id, to_name, ownership)
         values ($1, $2, $3, $4, 1, 'HANDOVER', $5, $6, $7, $8, $9, $10, $11, $12, $13, 'PARTIAL')`,
        [
          circle.id,
          height,
          hash,
          prevHash,
          content.first,
          content.time,
          circle.name,
          content.item.id,
          content.item.name,
          people.from.id,
          people.from.name,
          people.to.id,
          people.to.name,
        ],
      )
      prevHash = hash
    }
    await client.query('insert into ledger_heads (circle_id, size, head_hash) values ($1, $2, $3)', [
      circle.id,
      count,
      prevHash,
    ])
    await client.query('commit')
  } catch (error) {
    await client.query('rollback')
    throw error
  }
}

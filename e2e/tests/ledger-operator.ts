// What a dishonest operator can do with the database and the server's signing key: rewrite a block,
// recompute every later hash and the Merkle tree, and sign every checkpoint again. The chain then checks
// out on the server; only a device that remembers an earlier checkpoint can tell.
import type pg from 'pg'
import {
  appendLeaf,
  type BlockContent,
  blockHash,
  emptyFrontier,
  GENESIS_PREV_HASH,
  hashToHex,
  hexToHash,
  merkleTree,
  parseCheckpoint,
  parseNote,
  parseSignerKey,
  seedSigner,
  signCheckpoint,
} from '../../packages/ledger/src/index'

interface BlockRow {
  id: string
  circle_id: string
  height: number
  version: number
  kind: BlockContent['kind']
  first: boolean
  time: string
  circle_name: string
  handover_id: string | null
  item_id: string
  item_name: string
  from_id: string
  from_name: string
  to_id: string
  to_name: string
  ownership: BlockContent['ownership']
  /** Encoding v2 (issue 23): why an automatic transfer happened; NULL on v1 rows and handovers. */
  reason: 'LEFT' | 'REMOVED' | null
  requester_comment_commitment: string | null
  receiver_comment_commitment: string | null
  secret_message_commitment: string | null
}

/** A row's content in its own encoding, as the server reads it back (v1 rows have no `reason`). */
function contentOf(row: BlockRow, prevHash: string): BlockContent {
  const fields = {
    kind: row.kind,
    circle: { id: row.circle_id, name: row.circle_name },
    height: row.height,
    prevHash,
    first: row.first,
    time: row.time,
    handoverId: row.handover_id,
    item: { id: row.item_id, name: row.item_name },
    from: { id: row.from_id, name: row.from_name },
    to: { id: row.to_id, name: row.to_name },
    ownership: row.ownership,
    commitments: {
      requesterComment: row.requester_comment_commitment,
      receiverComment: row.receiver_comment_commitment,
      secretMessage: row.secret_message_commitment,
    },
  }
  return row.version === 1 ? { v: 1, ...fields } : { v: 2, ...fields, reason: row.reason }
}

/** Rewrites block `height` of the circle to name `toName` as its receiver, and re-signs everything. */
export async function rewriteHistory(
  client: pg.Client,
  circleId: string,
  signingKey: string,
  change: { height: number; toName: string },
): Promise<void> {
  const { key, seed } = parseSignerKey(signingKey)
  await client.query('begin')
  try {
    await client.query('alter table blocks disable trigger blocks_append_only')
    const { rows } = await client.query<BlockRow>(
      'select * from blocks where circle_id = $1 order by height',
      [circleId],
    )
    let prev = GENESIS_PREV_HASH
    const leaves = []
    for (const row of rows) {
      if (row.height === change.height) row.to_name = change.toName
      const hash = blockHash(contentOf(row, prev))
      await client.query('update blocks set to_name = $2, prev_hash = $3, hash = $4 where id = $1', [
        row.id,
        row.to_name,
        prev,
        hash,
      ])
      leaves.push(hexToHash(hash))
      prev = hash
    }
    await client.query('alter table blocks enable trigger blocks_append_only')

    const head = await client.query<{ checkpoint: string }>(
      'select checkpoint from ledger_heads where circle_id = $1',
      [circleId],
    )
    const { origin } = parseCheckpoint(parseNote(head.rows[0]!.checkpoint).text)
    const tree = merkleTree(leaves)
    let note = ''
    for (let size = 1; size <= leaves.length; size++) {
      note = signCheckpoint(
        { origin, size, rootHash: tree.root(size), extensions: [] },
        seedSigner(key.name, seed),
      )
      await client.query('update ledger_checkpoints set note = $3 where circle_id = $1 and size = $2', [
        circleId,
        size,
        note,
      ])
    }
    const frontier = leaves.reduce(appendLeaf, emptyFrontier())
    await client.query(
      'update ledger_heads set head_hash = $2, frontier = $3::jsonb, checkpoint = $4 where circle_id = $1',
      [circleId, prev, JSON.stringify(frontier.nodes.map(hashToHex)), note],
    )
    await client.query('commit')
  } catch (error) {
    await client.query('rollback')
    throw error
  }
}

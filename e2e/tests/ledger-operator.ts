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
  nameCommitment,
  hexToHash,
  merkleTree,
  parseCheckpoint,
  parseNote,
  parseSignerKey,
  seedSigner,
  signCheckpoint,
  type BlockEvidence,
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
  from_name: string | null
  from_name_commitment: string | null
  to_id: string
  to_name: string | null
  to_name_salt: string | null
  to_name_commitment: string | null
  ownership: BlockContent['ownership']
  /** Encoding v2 (issue 23): why an automatic transfer happened; NULL on v1 rows and handovers. */
  reason: 'LEFT' | 'REMOVED' | null
  requester_comment_commitment: string | null
  receiver_comment_commitment: string | null
  secret_message_commitment: string | null
  /** Encoding v4 (issue 26): the loan and its date as hashed; NULL otherwise. */
  loan_id: string | null
  due_at: string | null
  /** Encoding v5 (issue 28): the condition evidence as hashed; NULL otherwise. */
  evidence: BlockEvidence | null
}

/**
 * A row's content in its own encoding, as the server reads it back (v1 rows have no `reason`; v3 rows
 * hold the names' commitments, the names beside them).
 */
function contentOf(row: BlockRow, prevHash: string): BlockContent {
  const common = {
    kind: row.kind,
    circle: { id: row.circle_id, name: row.circle_name },
    height: row.height,
    prevHash,
    first: row.first,
    time: row.time,
    handoverId: row.handover_id,
    item: { id: row.item_id, name: row.item_name },
    ownership: row.ownership,
    commitments: {
      requesterComment: row.requester_comment_commitment,
      receiverComment: row.receiver_comment_commitment,
      secretMessage: row.secret_message_commitment,
    },
  }
  if (row.version >= 3 && row.version <= 5) {
    const committed = {
      ...common,
      reason: row.reason,
      from: { id: row.from_id, nameCommitment: row.from_name_commitment! },
      to: { id: row.to_id, nameCommitment: row.to_name_commitment! },
    }
    // v4 (issue 26): the loan the block is about, and its date as hashed; v5 (issue 28) its evidence.
    const loan = row.loan_id ? { id: row.loan_id, dueAt: row.due_at } : null
    if (row.version === 4) return { v: 4, ...committed, loan } as BlockContent
    if (row.version === 5) return { v: 5, ...committed, loan, evidence: row.evidence ?? null } as BlockContent
    return { v: 3, ...committed } as BlockContent
  }
  const fields = {
    ...common,
    from: { id: row.from_id, name: row.from_name },
    to: { id: row.to_id, name: row.to_name },
  }
  // Rows before v4 hold only the kinds of their version.
  const old = { ...fields, kind: row.kind as 'HANDOVER' | 'AUTO_TRANSFER' }
  return row.version === 1 ? { v: 1, ...old } : { v: 2, ...old, reason: row.reason }
}

/**
 * What the account deletion does to the ledger (issue 24), done as a database operator would: the
 * person's names beside v3 blocks and their salts go, and on blocks written before v3 the names in
 * clear (redacted). The append-only trigger allows exactly this.
 */
export async function erasePersonFromLedger(client: pg.Client, userId: string): Promise<number> {
  const from = await client.query(
    'update blocks set from_name = null, from_name_salt = null where from_id = $1 and from_name is not null',
    [userId],
  )
  const to = await client.query(
    'update blocks set to_name = null, to_name_salt = null where to_id = $1 and to_name is not null',
    [userId],
  )
  return (from.rowCount ?? 0) + (to.rowCount ?? 0)
}

/**
 * Rewrites block `height` of the circle to name `toName` as its receiver, and re-signs everything: the
 * blocks, the tiles, every checkpoint and the head.
 */
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
      if (row.height === change.height) {
        row.to_name = change.toName
        // A v3 row: the new name enters the hash as a new commitment, its salt kept beside it.
        if (row.version >= 3) row.to_name_commitment = nameCommitment(change.toName, row.to_name_salt!)
      }
      const hash = blockHash(contentOf(row, prev))
      await client.query(
        'update blocks set to_name = $2, to_name_commitment = $3, prev_hash = $4, hash = $5 where id = $1',
        [row.id, row.to_name, row.to_name_commitment, prev, hash],
      )
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
    // The tiles (issue 29) hold the rewritten leaves too, so a device that never saw the honest log
    // builds its proofs from them and finds nothing wrong. Level 0 only: these logs are small.
    if (leaves.length > 256) throw new Error('rewriteHistory rewrites logs of at most 256 blocks')
    await client.query('update ledger_tiles set data = $2 where circle_id = $1 and level = 0 and idx = 0', [
      circleId,
      Buffer.concat(leaves),
    ])
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

/**
 * Issue 25: a backup from an older release restores into this one. The older backup is this release's,
 * as the release of migration 0012 wrote it (the same rows without the columns and the table that
 * 0013-0016 add, at that migration level); the restore loads it at that level, then migrates. The
 * target is new: a DATA_DIR without a database (PGlite's initdb runs; PGlite run) or a new PostgreSQL database.
 */
import { createWriteStream } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pgliteSnapshotSource } from '../src/backup/admin-socket'
import { restoreBackup } from '../src/backup/restore'
import { writeSnapshot } from '../src/backup/snapshot'
import { loadConfig } from '../src/config'
import {
  type Person,
  asTestApp,
  cleanUp,
  emptyDatabase,
  postgresUrl,
  rewritten,
  signIn,
  startInstance,
  tempDir,
} from './support/backup'
import { addMember, createCircle } from './support/circles'
import { createUser } from './support/factories'
import { createItem, handOver } from './support/handovers'

let file: string
const world: { people: Person[]; circles: { id: string; reader: Person }[] } = { people: [], circles: [] }

beforeAll(async () => {
  const instance = await startInstance(await tempDir('older-source'))
  const who = []
  for (const name of ['Ada', 'Ben']) {
    const user = await createUser(instance.database, { name })
    world.people.push({ email: user.email, password: user.password })
    who.push(await signIn(instance.app, world.people.at(-1)!))
  }
  const [ada, ben] = who as [(typeof who)[0], (typeof who)[0]]
  const t = asTestApp(instance)
  const circle = await createCircle(t, ada)
  await addMember(t, ada, circle.id, ben)
  const item = await createItem(t, ada, circle.id)
  await handOver(t, ada, ben, item.id)
  world.circles.push({ id: circle.id, reader: world.people[0]! })
  file = path.join(await tempDir('older-file'), 'current.backup')
  await writeSnapshot(
    pgliteSnapshotSource(loadConfig(instance.env), instance.database),
    createWriteStream(file),
  )
  await instance.close()
})

afterAll(cleanUp)

describe('a backup from an older release', () => {
  it('restores a backup from an older release, then migrates it to this one', async () => {
    // The same backup as the release of migration 0012 wrote it: no users.deleted_at (0013), no passkey
    // names (0014), no socket event log (0015), and its migration level.
    // Nor what 0016 (lending, issue 26) adds, nor the items' label codes of 0017 (issue 27), which the
    // migration gives the restored items, nor 0018's push switches and tables (issue 27), nor 0019's
    // condition evidence (issue 28), nor 0020's tiles (issue 29), nor 0021's witness keys and
    // cosignatures (issue 29).
    const droppedColumns: Record<string, string[]> = {
      users: [
        'deleted_at',
        'notify_loan_reminders',
        'notify_borrow_requests',
        'notify_loan_changes',
        'time_zone',
        'push_handover_requests',
        'push_handover_answers',
        'push_invitations',
        'push_loan_reminders',
      ],
      webauthn_credentials: ['name', 'aaguid'],
      handovers: [
        'kind',
        'due_at',
        'loan_id',
        'sender_note',
        'sender_note_salt',
        'receiver_note',
        'receiver_note_salt',
        'receiver_as_described',
      ],
      blocks: ['loan_id', 'due_at', 'evidence'],
      ledger_heads: ['tiled_size'],
      items: ['code'],
    }
    const droppedTables = [
      'socket_events',
      'loans',
      'loan_extensions',
      'borrow_requests',
      'loan_reminders',
      'calendar_feeds',
      'push_subscriptions',
      'push_outbox',
      'condition_photos',
      'ledger_tiles',
      'witness_keys',
      'ledger_cosignatures',
      'ledger_witness_state',
      'ledger_witness_cosignatures',
    ]
    const levelOf0012 = 13
    const older = await rewritten(file, (lines) => {
      const header = lines[0] as { migrations: unknown[] }
      header.migrations = header.migrations.slice(0, levelOf0012)
      let keep: number[] | undefined
      let dropping = false
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i]!
        if (line.kind === 'table') {
          dropping = droppedTables.includes(line.name as string)
          const columns = line.columns as string[]
          const gone = droppedColumns[line.name as string] ?? []
          keep = columns.flatMap((c, i) => (gone.includes(c) ? [] : [i]))
          line.columns = keep.map((i) => columns[i])
          line.types = keep.map((i) => (line.types as string[])[i])
        } else if (line.kind === 'row') {
          line.values = keep!.map((i) => (line.values as unknown[])[i])
        } else {
          keep = undefined
          dropping = false
        }
        if (dropping) lines.splice(i--, 1)
      }
    })
    // A new data directory (PGlite's initdb included) or a new PostgreSQL database: both at no level yet.
    const dataDir = path.join(await tempDir('older'), 'data')
    const url = postgresUrl ? await emptyDatabase() : undefined
    const { header } = await restoreBackup(older, { dataDir, databaseUrl: url })
    expect(header.migrations.length).toBe(levelOf0012)
    const restored = await startInstance(dataDir, url)
    try {
      for (const person of world.people) {
        const { user } = await signIn(restored.app, person)
        expect(user.email).toBe(person.email)
      }
      const [circle] = world.circles
      const reader = await signIn(restored.app, circle!.reader)
      const verified = await restored.app.inject({
        method: 'GET',
        url: `/api/blockchain/verify/${circle!.id}`,
        headers: reader.auth,
      })
      expect(verified.json()).toMatchObject({ valid: true })
      // Migration 0017 gave the restored item its label's code, and the code finds it.
      const items = await restored.app.inject({
        method: 'GET',
        url: '/api/items',
        headers: reader.auth,
      })
      const codes = (items.json() as { items: { code: string }[] }).items.map((i) => i.code)
      expect(codes.length).toBeGreaterThan(0)
      for (const code of codes) {
        const found = await restored.app.inject({
          method: 'GET',
          url: `/api/items/by-code/${code}`,
          headers: reader.auth,
        })
        expect(found.statusCode).toBe(200)
      }
    } finally {
      await restored.close()
    }
  }, 60_000)
})

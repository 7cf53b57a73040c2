import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import * as schema from '../db/schema'

// No module writes another module's tables (docs/decisions/0046): it calls the owner's service, inside
// its own transaction (e.g. handovers move an item through items.moveTo). Every insert, update and
// delete of a schema table in modules/<m>/ is checked against the table's owner here.
const owners: Record<string, string> = {
  users: 'users',
  emailVerificationTokens: 'users',
  passwordResetTokens: 'users',
  circles: 'circles',
  circleMembers: 'circles',
  circleDepartures: 'circles',
  invitations: 'circles',
  items: 'items',
  handovers: 'handovers',
  borrowRequests: 'borrow-requests',
  loans: 'loans',
  loanExtensions: 'loans',
  loanReminders: 'loan-reminders',
  calendarFeeds: 'calendar',
  blocks: 'ledger',
  ledgerHeads: 'ledger',
  ledgerCheckpoints: 'ledger',
  ledgerTiles: 'ledger',
  witnessKeys: 'ledger',
  ledgerCosignatures: 'ledger',
  ledgerWitnessState: 'ledger',
  ledgerWitnessCosignatures: 'ledger',
  activities: 'activities',
  webauthnCredentials: 'webauthn',
  webauthnChallenges: 'webauthn',
  contactMessages: 'contact',
  pushSubscriptions: 'push',
  conditionPhotos: 'condition',
}

/**
 * Known exceptions, each a decision: the account deletion erases a person's rows everywhere in one
 * transaction (docs/decisions/0035); the avatar is a column of the users row (docs/decisions/0037).
 */
const exceptions: Record<string, string[]> = {
  'account-deletion': Object.keys(schema),
  avatars: ['users'],
}

const modulesDir = path.dirname(new URL(import.meta.url).pathname)
const tables = new Set(Object.keys(schema))

/** Each `.insert(t)`, `.update(t)` or `.delete(t)` of a schema table, with the module it is in. */
function writes(): { module: string; file: string; table: string }[] {
  const found: { module: string; file: string; table: string }[] = []
  for (const module of readdirSync(modulesDir, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    const dir = path.join(modulesDir, module.name)
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const text = readFileSync(path.join(dir, file), 'utf8')
      for (const match of text.matchAll(/\.(?:insert|update|delete)\(\s*(\w+)\s*\)/g)) {
        const table = match[1] ?? ''
        if (tables.has(table)) found.push({ module: module.name, file, table })
      }
    }
  }
  return found
}

describe('table ownership', () => {
  it('finds the writes it checks', () => {
    const found = writes()
    expect(found).toContainEqual({ module: 'items', file: 'items.repository.ts', table: 'items' })
    expect(found).toContainEqual({ module: 'handovers', file: 'handovers.repository.ts', table: 'handovers' })
  })

  it("no module writes another module's table", () => {
    const foreign = writes().filter(({ module, table }) => {
      if (exceptions[module]?.includes(table)) return false
      const owner = owners[table]
      if (owner) return owner !== module
      // A table without a listed owner belongs to the one module that writes it.
      return (
        new Set(
          writes()
            .filter((w) => w.table === table)
            .map((w) => w.module),
        ).size > 1
      )
    })
    expect(foreign).toEqual([])
  })
})

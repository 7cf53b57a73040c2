// Issue 24 (docs/decisions/0035): "Delete my account". What the preview says, what one transaction
// does to circles, items, handovers, the feed, the outbox and every other row about the person, that the
// tombstone is no account, that nothing rolls half way, the password's guessing limit, the passkey's
// re-authentication, and a search of the database, the API's answers, the outbox and the log for the
// deleted person's name and email, the ledger and the other members' data exports included, while
// every ledger still verifies on the server and offline with circles-ledger.
import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { MESSAGES, type TDeletionPreview } from '@circles/shared'
import { verifyDataExport, verifyExport } from '@circles/ledger'
import { eq, inArray, sql } from 'drizzle-orm'
import { strFromU8, unzipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  activities,
  circleMembers,
  circles,
  contactMessages,
  handovers,
  invitations,
  items,
  outbox,
  passwordResetTokens,
  rateLimits,
  storedFiles,
  users,
  webauthnChallenges,
  webauthnCredentials,
} from '../src/db/schema'
import { main as ledgerCli } from '../../../packages/ledger/src/cli'
import { rateKey } from '../src/lib/rate-limits'
import { softwarePasskey, type SoftwarePasskey } from './support/authenticator'
import { addMember, createCircle, qrInvitation, type SignedIn, signedIn } from './support/circles'
import { createItem, handOver, pendingHandover } from './support/handovers'
import { multipart, pictureBytes } from './support/images'
import { connectAs, listen, refusedConnection, tokenOf } from './support/sockets'
import { createTestApp, type TestApp } from './support/test-app'

const lines: string[] = []
let t: TestApp
let dataDir: string

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'circles-deletion-'))
  t = await createTestApp({
    env: { DATA_DIR: dataDir },
    logStream: { write: (line: string) => void lines.push(line) },
  })
})
afterAll(async () => {
  await t.close()
  await rm(dataDir, { recursive: true, force: true })
})

const tag = () => randomBytes(4).toString('hex')
const inject = (
  who: SignedIn | undefined,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) => t.app.inject({ method, url, headers: who?.auth ?? {}, ...(payload && { payload }) })
const preview = async (who: SignedIn) =>
  (await inject(who, 'GET', '/api/users/me/deletion')).json().preview as TDeletionPreview
const deleteWith = (who: SignedIn, payload: object) => inject(who, 'POST', '/api/users/me/delete', payload)

async function upload(who: SignedIn, itemId: string) {
  const form = multipart('image', {
    name: 'p.png',
    type: 'image/png',
    bytes: await pictureBytes('png', 320, 240),
  })
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/items/${itemId}/image`,
    headers: { ...who.auth, ...form.headers },
    payload: form.payload,
  })
  if (res.statusCode !== 200) throw new Error(`upload: ${res.statusCode} ${res.body}`)
  return res.json().imageUrl as string
}

/** The stored picture files' names: the upload folder, or the table with PostgreSQL. */
async function storedPictures(): Promise<string[]> {
  if (t.database.kind === 'postgres') {
    return (await t.database.db.select({ name: storedFiles.name }).from(storedFiles)).map((r) => r.name)
  }
  return (await readdir(path.join(dataDir, 'uploads')).catch(() => [] as string[])).filter(
    (n) => !n.startsWith('.'),
  )
}

async function registerPasskey(who: SignedIn, passkey: SoftwarePasskey = softwarePasskey()) {
  const options = (await inject(who, 'GET', '/api/webauthn/register/options')).json()
  const res = await inject(who, 'POST', '/api/webauthn/register/verify', {
    credential: passkey.register(options),
  })
  if (res.statusCode !== 200) throw new Error(`passkey: ${res.statusCode} ${res.body}`)
  return passkey
}

async function reauthOptions(who: SignedIn) {
  const res = await inject(who, 'POST', '/api/webauthn/reauth/options')
  expect(res.statusCode).toBe(200)
  return res.json().options as { challenge: string }
}

/** Every row of every table (but those `except`), as JSON text. */
async function databaseDump(except: string[] = []): Promise<string> {
  const { db } = t.database
  const tables = (
    (await db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    )) as unknown as { rows: { table_name: string }[] }
  ).rows.map((r) => r.table_name)
  const parts: string[] = []
  for (const table of tables.filter((name) => !except.includes(name))) {
    const rows = (
      (await db.execute(
        sql`select row_to_json(x)::text as j from ${sql.identifier(table)} x`,
      )) as unknown as {
        rows: { j: string }[]
      }
    ).rows
    parts.push(`${table}: ${rows.map((r) => r.j).join('\n')}`)
  }
  return parts.join('\n')
}

/**
 * Ida runs Linden Street (Otto and Ben members). Ben runs Garden (Otto joined before Ida) and is alone in
 * Attic. Ben holds his own pictured Tent (with a pending request to Otto), Ida's Drill partially, and
 * Otto asks him to take the Ladder.
 */
async function world() {
  const name = `Bennet Quill ${tag()}`
  const ben = await signedIn(t, { name })
  const ida = await signedIn(t, { name: `Ida Admin ${tag()}` })
  const otto = await signedIn(t, { name: `Otto Owner ${tag()}` })
  const linden = await createCircle(t, ida, { name: 'Linden Street' })
  await addMember(t, ida, linden.id, otto)
  await addMember(t, ida, linden.id, ben)
  const garden = await createCircle(t, ben, { name: 'Garden' })
  await addMember(t, ben, garden.id, otto)
  await addMember(t, ben, garden.id, ida)
  const attic = await createCircle(t, ben, { name: 'Attic' })

  const tent = await createItem(t, ben, linden.id, 'Tent')
  const tentPicture = await upload(ben, tent.id)
  const drill = await createItem(t, ida, linden.id, 'Drill')
  const secret = `secret-${tag()}`
  const comment = `comment-${tag()}`
  const confirmed = await handOver(t, ida, ben, drill.id)
  await t.database.db
    .update(handovers)
    .set({ receiverComment: `thanks-${tag()}` })
    .where(eq(handovers.id, confirmed.id))
  const ladder = await createItem(t, otto, linden.id, 'Ladder')
  const ottoAsks = await pendingHandover(t, otto, ben, ladder.id)
  const benOffers = await pendingHandover(t, ben, otto, tent.id, {
    requesterComment: comment,
    secretMessage: secret,
  })
  const rake = await createItem(t, ben, garden.id, 'Rake')
  const box = await createItem(t, ben, attic.id, 'Box')
  const boxPicture = await upload(ben, box.id)
  // An invitation Ben sent, one addressed to him, his contact message, a reset link, a passkey.
  const sent = await qrInvitation(t, ben, garden.id, `friend-${tag()}@example.com`)
  const toBen = await inject(
    otto,
    'POST',
    `/api/circles/${(await createCircle(t, otto, { name: 'Ottos' })).id}/users`,
    {
      email: ben.user.email,
    },
  )
  expect(toBen.statusCode).toBe(201)
  await inject(undefined, 'POST', '/api/contact', {
    name,
    email: ben.user.email,
    subject: 'Hello there',
    message: 'A question about the app',
  })
  await inject(undefined, 'POST', '/api/users/request-password-reset', { email: ben.user.email })
  const passkey = await registerPasskey(ben)
  // A pending email to someone else that names Ben, not yet due.
  await t.database.db.insert(outbox).values({
    kind: 'notice',
    toAddress: otto.user.email,
    subject: `${name} wants to hand you a Tent`,
    textBody: `Hello, ${name} asks`,
    htmlBody: `<p>${name} asks</p>`,
    nextAttemptAt: new Date(Date.now() + 3_600_000),
  })
  return {
    ben,
    ida,
    otto,
    name,
    linden,
    garden,
    attic,
    tent,
    tentPicture,
    drill,
    ladder,
    rake,
    box,
    boxPicture,
    ottoAsks,
    benOffers,
    confirmed,
    sent,
    secret,
    comment,
    passkey,
  }
}

describe('the preview', () => {
  it('says which circles close, whose admin rights pass to whom, which items go and which go to the admin', async () => {
    const w = await world()
    const p = await preview(w.ben)
    expect(p.circles).toEqual(
      expect.arrayContaining([
        { id: w.linden.id, name: 'Linden Street', outcome: 'LEAVES', successor: null },
        {
          id: w.garden.id,
          name: 'Garden',
          outcome: 'ADMIN_PASSES',
          successor: { id: w.otto.user.id, name: w.otto.user.name },
        },
        { id: w.attic.id, name: 'Attic', outcome: 'CLOSES', successor: null },
      ]),
    )
    expect(p.itemsDeleted.map((i) => i.name).sort()).toEqual(['Box', 'Rake', 'Tent'])
    expect(p.itemsToAdmin).toEqual([
      {
        id: w.drill.id,
        name: 'Drill',
        circleId: w.linden.id,
        admin: { id: w.ida.user.id, name: w.ida.user.name },
      },
    ])
    expect(p.pendingHandovers).toBe(2)
    expect(p.hasPasskeys).toBe(true)
    expect((await inject(undefined, 'GET', '/api/users/me/deletion')).statusCode).toBe(401)
  })
})

describe('deleting the account', () => {
  it('does everything the decision says, in one go, and leaves no trace of the name or email anywhere, while every ledger verifies', async () => {
    const w = await world()
    const email = w.ben.user.email
    const picturesBefore = await storedPictures()
    expect(picturesBefore.length).toBeGreaterThanOrEqual(4)

    const res = await deleteWith(w.ben, { password: w.ben.user.password })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ message: MESSAGES.accountDeleted })

    const { db } = t.database
    // The tombstone.
    const [tomb] = await db.select().from(users).where(eq(users.id, w.ben.user.id))
    expect(tomb).toMatchObject({ name: '', emailVerified: false })
    expect(tomb!.deletedAt).toBeInstanceOf(Date)
    expect(tomb!.email).toMatch(/^deleted-[0-9a-f-]{36}@deleted\.invalid$/)
    expect(tomb!.sessionVersion).toBe(w.ben.user.sessionVersion + 1)
    expect(tomb!.passwordHash).not.toBe(w.ben.user.passwordHash)
    // Every session ends.
    expect((await inject(w.ben, 'GET', '/api/users/me')).statusCode).toBe(401)

    // Linden Street: Ben left; Ida's drill is hers again, the pending requests withdrawn.
    expect((await inject(w.ida, 'GET', `/api/items/${w.drill.id}`)).json().item).toMatchObject({
      ownerId: w.ida.user.id,
    })
    const requests = await db.select().from(handovers).where(eq(handovers.itemId, w.ladder.id))
    expect(requests.map((h) => h.status)).toEqual(['CANCELLED'])
    const lindenMembers = (await inject(w.ida, 'GET', `/api/circles/${w.linden.id}`)).json().circle.users
    expect(lindenMembers.map((m: { userId: string }) => m.userId)).not.toContain(w.ben.user.id)
    // Garden: Otto, who joined first, is admin; Ida stays a member.
    const [garden] = await db.select().from(circles).where(eq(circles.id, w.garden.id))
    expect(garden!.adminId).toBe(w.otto.user.id)
    // Attic closed, with its item.
    expect(await db.select().from(circles).where(eq(circles.id, w.attic.id))).toEqual([])
    // Items Ben held completely are gone, with their pictures.
    for (const item of [w.tent, w.rake, w.box]) {
      expect(await db.select().from(items).where(eq(items.id, item.id))).toEqual([])
    }
    const picturesAfter = await storedPictures()
    for (const url of [w.tentPicture, w.boxPicture]) {
      const id = url.split('/').pop()!.split('.')[0]!
      expect(picturesBefore.some((n) => n.startsWith(id))).toBe(true)
      expect(picturesAfter.some((n) => n.startsWith(id))).toBe(false)
    }
    // His texts in handovers are erased; the others' stay.
    const [confirmed] = await db.select().from(handovers).where(eq(handovers.id, w.confirmed.id))
    expect(confirmed!.receiverComment).toBeNull()
    // Everything else about him.
    expect(
      await db.select().from(webauthnCredentials).where(eq(webauthnCredentials.userId, w.ben.user.id)),
    ).toEqual([])
    expect(
      await db.select().from(webauthnChallenges).where(eq(webauthnChallenges.userId, w.ben.user.id)),
    ).toEqual([])
    expect(
      await db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, w.ben.user.id)),
    ).toEqual([])
    expect(await db.select().from(invitations).where(eq(invitations.email, email))).toEqual([])
    expect(await db.select().from(contactMessages).where(eq(contactMessages.email, email))).toEqual([])
    expect(await db.select().from(activities).where(eq(activities.userId, w.ben.user.id))).toEqual([])
    expect(await db.select().from(circleMembers).where(eq(circleMembers.userId, w.ben.user.id))).toEqual([])
    expect(await db.select().from(outbox).where(eq(outbox.toAddress, email))).toEqual([])
    const keyed = await db
      .select()
      .from(rateLimits)
      .where(
        inArray(rateLimits.key, [
          `loginFailuresPerAccount:${rateKey(email)}`,
          `resetPerEmail:${rateKey(email)}`,
        ]),
      )
    expect(keyed).toEqual([])
    // The invitation he sent stays valid; the invitee reads the spec's fallback.
    const invite = await inject(undefined, 'GET', `/api/circles/invitations/${w.sent.token}/verify`)
    expect(invite.statusCode).toBe(200)
    expect(invite.json().invitation.name).toBeNull()

    // The feed names him no more: Ida's and Otto's entries read '' where his name was.
    const feeds = [
      ...(await inject(w.ida, 'GET', '/api/activities/recent')).json().activities,
      ...(await inject(w.otto, 'GET', '/api/activities/recent')).json().activities,
    ]
    const newTent = feeds.find((a) => a.type === 'NEW_ITEM' && a.data.name === 'Tent')
    expect(newTent).toMatchObject({
      data: { owner: { name: '' } },
      title: 'A deleted member added Tent to Linden Street',
    })
    const back = feeds.find((a) => a.type === 'AUTO_TRANSFER' && a.data.item.id === w.drill.id)
    expect(back).toMatchObject({
      data: { sender: { name: '' }, receiver: { name: w.ida.user.name }, reason: 'LEFT' },
    })

    // Nothing in the database (but the ledger), the answers, the outbox or the log names him.
    const answers: string[] = []
    for (const who of [w.ida, w.otto]) {
      for (const url of [
        '/api/circles',
        `/api/circles/${w.linden.id}`,
        `/api/circles/${w.garden.id}`,
        '/api/items',
        `/api/items/circle/${w.linden.id}`,
        `/api/items/${w.drill.id}`,
        `/api/items/${w.ladder.id}`,
        `/api/handovers/item/${w.ladder.id}`,
        `/api/handovers/item/${w.drill.id}`,
        '/api/handovers',
        '/api/activities/recent',
        '/api/dashboard/stats',
        `/api/circles/${w.garden.id}/invitations`,
      ]) {
        answers.push((await inject(who, 'GET', url)).body)
      }
    }
    // The ledgers (docs/decisions/0034): Ben's names erased, every chain still checks out on the server,
    // in the export's own check and with circles-ledger; Ida's and Otto's data exports name him nowhere.
    const keys = (await inject(undefined, 'GET', '/api/ledger/keys')).json().keys as string[]
    const dir = await mkdtemp(path.join(os.tmpdir(), 'circles-deleted-'))
    for (const circle of [w.linden, w.garden]) {
      const verified = await inject(w.ida, 'GET', `/api/blockchain/verify/${circle.id}`)
      expect(verified.json()).toMatchObject({ valid: true, failingBlocks: [] })
      answers.push(verified.body)
      for (const url of [`/api/blockchain/circle/${circle.id}`, `/api/ledger/${circle.id}/checkpoint`]) {
        answers.push((await inject(w.ida, 'GET', url)).body)
      }
      const exported = (await inject(w.ida, 'GET', `/api/ledger/${circle.id}/export`)).body
      answers.push(exported)
      expect(verifyExport(exported, { keys })).toMatchObject({ valid: true, problems: [] })
      const file = path.join(dir, `${circle.id}.jsonl`)
      await writeFile(file, exported)
      let printed = ''
      expect(await ledgerCli(['verify', file, '--key', keys[0]!], (text) => (printed += text))).toBe(0)
      expect(JSON.parse(printed)).toMatchObject({ valid: true })
    }
    const lindenBlocks = (await inject(w.ida, 'GET', `/api/blockchain/circle/${w.linden.id}`)).json().blocks
    // Blocks about him are there (the drill to him and back), his name in none.
    const aboutBen = lindenBlocks.filter(
      (b: { content: { from: { id: string }; to: { id: string } } }) =>
        b.content.from.id === w.ben.user.id || b.content.to.id === w.ben.user.id,
    )
    expect(aboutBen.length).toBeGreaterThanOrEqual(2)
    answers.push((await inject(w.ida, 'GET', '/api/blockchain')).body)
    answers.push((await inject(w.ida, 'GET', `/api/blockchain/item/${w.drill.id}`)).body)
    for (const who of [w.ida, w.otto]) {
      const zip = await inject(who, 'GET', '/api/users/me/export')
      expect(zip.statusCode).toBe(200)
      const files = unzipSync(new Uint8Array(zip.rawPayload))
      const data = strFromU8(files['circles-data.json']!)
      expect(verifyDataExport(data, { keys })).toMatchObject({ valid: true, problems: [] })
      for (const [name, bytes] of Object.entries(files)) {
        if (!name.startsWith('pictures/')) answers.push(strFromU8(bytes))
      }
    }
    await rm(dir, { recursive: true, force: true })

    const dump = await databaseDump()
    const log = lines.join('')
    for (const needle of [w.name, email, w.secret, w.comment]) {
      expect(dump).not.toContain(needle)
      expect(answers.join('\n')).not.toContain(needle)
    }
    expect(log).not.toContain(w.name)
    expect(log).not.toContain(email)
    expect(log).not.toMatch(/deleted-[0-9a-f-]{36}@deleted\.invalid/)
  })

  it('leaves no account behind: sign-in, reset and passkey sign-in know no such email, and it may register again', async () => {
    const ben = await signedIn(t, { name: `Ben ${tag()}` })
    const passkey = await registerPasskey(ben)
    expect((await deleteWith(ben, { password: ben.user.password })).statusCode).toBe(200)
    const login = await inject(undefined, 'POST', '/api/users/login', {
      email: ben.user.email,
      password: ben.user.password,
    })
    expect(login.statusCode).toBe(401)
    expect(login.json().message).toBe(MESSAGES.invalidCredentials)
    await inject(undefined, 'POST', '/api/users/request-password-reset', { email: ben.user.email })
    expect(await t.database.db.select().from(outbox).where(eq(outbox.toAddress, ben.user.email))).toEqual([])
    const options = await inject(undefined, 'POST', '/api/webauthn/login/options', { email: ben.user.email })
    expect(options.statusCode).toBe(404)
    const anyKey = (await inject(undefined, 'POST', '/api/webauthn/login/options', {})).json().options
    const signIn = await inject(undefined, 'POST', '/api/webauthn/login/verify', {
      credential: passkey.assert(anyKey),
    })
    expect(signIn.statusCode).toBe(401)
    const again = await inject(undefined, 'POST', '/api/users/register', {
      name: 'Ben Again',
      email: ben.user.email,
      password: 'another good password',
    })
    expect(again.statusCode).toBe(201)
    const [fresh] = await t.database.db.select().from(users).where(eq(users.email, ben.user.email))
    expect(fresh!.id).not.toBe(ben.user.id)
  })

  it('rolls back completely when a step fails', async () => {
    const w = await world()
    const { db } = t.database
    // The outbox worker goes on sending meanwhile, and the rate limits count: those two tables move.
    const moving = ['outbox', 'rate_limits']
    const outboxBefore = await db.select({ id: outbox.id }).from(outbox)
    const before = await databaseDump(moving)
    await db.execute(sql`create or replace function refuse_tombstone() returns trigger language plpgsql as $$
      begin raise exception 'refused for the test'; end $$`)
    await db.execute(sql`create trigger refuse_tombstone before update of deleted_at on users
      for each row when (new.deleted_at is not null) execute function refuse_tombstone()`)
    try {
      const res = await deleteWith(w.ben, { password: w.ben.user.password })
      expect(res.statusCode).toBe(500)
    } finally {
      await db.execute(sql`drop trigger refuse_tombstone on users`)
      await db.execute(sql`drop function refuse_tombstone()`)
    }
    expect(await databaseDump(moving)).toEqual(before)
    expect((await db.select({ id: outbox.id }).from(outbox)).length).toBeGreaterThanOrEqual(
      outboxBefore.length,
    )
    expect((await inject(w.ben, 'GET', '/api/users/me')).statusCode).toBe(200)
    expect(await storedPictures()).toEqual(
      expect.arrayContaining([expect.stringContaining(w.boxPicture.split('/').pop()!.split('.')[0]!)]),
    )
  })
})

describe('every session ends', () => {
  it('closes the deleted person’s open sockets and refuses new ones', async () => {
    const url = await listen(t)
    const ben = await signedIn(t, { name: `Ben ${tag()}` })
    const listener = await connectAs(url, tokenOf(ben))
    const closed = new Promise((resolve) => listener.socket.once('disconnect', resolve))
    expect((await deleteWith(ben, { password: ben.user.password })).statusCode).toBe(200)
    expect(await closed).toBe('io server disconnect')
    expect(await refusedConnection(url, tokenOf(ben))).toBe('Unauthorized')
  })
})

describe('confirming it is you', () => {
  it('a wrong password is refused with a clear message and counted like sign-in guessing', async () => {
    const ben = await signedIn(t, { name: `Ben ${tag()}` })
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) {
      const res = await deleteWith(ben, { password: 'not my password' })
      statuses.push(res.statusCode)
      if (res.statusCode === 403)
        expect(res.json()).toMatchObject({
          message: MESSAGES.deleteAccountWrongPassword,
          key: 'deleteAccountWrongPassword',
        })
    }
    expect(statuses.slice(0, 6)).toEqual([403, 403, 403, 403, 403, 403])
    expect(statuses[6]).toBe(429)
    // The session stays; the account too.
    expect((await inject(ben, 'GET', '/api/users/me')).statusCode).toBe(200)
    expect((await deleteWith(ben, {})).statusCode).toBe(400)
  })

  it('a fresh assertion of one’s own passkey does; someone else’s, a replay or a sign-in challenge does not', async () => {
    const ben = await signedIn(t, { name: `Ben ${tag()}` })
    const mallory = await signedIn(t, { name: `Mallory ${tag()}` })
    const mine = await registerPasskey(ben)
    const theirs = await registerPasskey(mallory)
    // Someone else's passkey, on a challenge handed to Ben.
    let res = await deleteWith(ben, { credential: theirs.assert(await reauthOptions(ben)) })
    expect(res.statusCode).toBe(403)
    expect(res.json().message).toBe(MESSAGES.deleteAccountPasskeyFailed)
    // Ben's passkey on a challenge handed to Mallory.
    res = await deleteWith(ben, { credential: mine.assert(await reauthOptions(mallory)) })
    expect(res.statusCode).toBe(403)
    // A challenge for signing in with no account named.
    const signIn = (await inject(undefined, 'POST', '/api/webauthn/login/options', {})).json().options
    expect((await deleteWith(ben, { credential: mine.assert(signIn) })).statusCode).toBe(403)
    // Without a passkey there is nothing to ask for.
    const plain = await signedIn(t)
    expect((await inject(plain, 'POST', '/api/webauthn/reauth/options')).statusCode).toBe(404)

    const assertion = mine.assert(await reauthOptions(ben))
    res = await deleteWith(ben, { credential: assertion })
    expect(res.statusCode).toBe(200)
    expect((await inject(ben, 'GET', '/api/users/me')).statusCode).toBe(401)
    expect((await deleteWith(mallory, { credential: assertion })).statusCode).toBe(403)
  })
})

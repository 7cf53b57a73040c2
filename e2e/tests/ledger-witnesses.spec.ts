import { readFile } from 'node:fs/promises'
import type { APIRequestContext, Browser, Page } from '@playwright/test'
import pg from 'pg'
import { decidedConsentCookie, expect, markNotAutomated, test } from '../support/fixtures'
import { expectAccessible, PASSWORD, screenshotScreen, useGerman } from './auth-support'
import { createCircle, createSignedInUser, joinCircle, type Session, signInAs } from './circles-support'
import { createItem, liveConnection, requestHandover } from './handovers-support'
import { rewriteHistory } from './ledger-operator'

// Members' devices as witnesses (issue 29, docs/decisions/0063), in Chromium against the real server:
// each device cosigns the checkpoint it verified, the circle's fingerprint, and the split-view alarm in
// both browsers when the operator shows two members two histories.

const auth = (session: Session) => ({ Authorization: `Bearer ${session.token}` })

async function circleWithBlocks(request: APIRequestContext, label: string, count: number) {
  const ida = await createSignedInUser(request, `${label}-ida`, 'Ida Owner')
  const ben = await createSignedInUser(request, `${label}-ben`, 'Ben Neighbour')
  const circleId = await createCircle(request, ida, { name: 'Linden Street' })
  await joinCircle(request, circleId, ida, ben)
  for (let i = 0; i < count; i++) {
    const itemId = await createItem(request, ida, circleId, { name: `Ladder ${i + 1}` })
    const id = await requestHandover(request, ida, { itemId, receiverId: ben.user.id })
    const answer = await request.put(`/api/handovers/${id}/status`, {
      data: { status: 'CONFIRMED' },
      headers: auth(ben),
    })
    expect(answer.status(), await answer.text()).toBe(200)
  }
  return { ida, ben, circleId }
}

/**
 * A second person at another browser, on the second server in the pair run (its own PUBLIC_URL): a log
 * keeps the origin of its first checkpoint whatever instance signs or takes cosignatures next
 * (docs/decisions/0064), so the two devices cosign one log through two servers.
 */
async function secondBrowser(browser: Browser, baseURL: string) {
  const url = process.env.E2E_SECOND_BASE_URL ?? baseURL
  const context = await browser.newContext({ baseURL: url })
  await context.addInitScript(markNotAutomated)
  await context.addCookies([decidedConsentCookie(url)])
  return { context, page: await context.newPage() }
}

/** The cosignature lines the server serves on the circle's newest checkpoint (after its own signature). */
async function cosignatureLines(request: APIRequestContext, session: Session, circleId: string) {
  const answer = await request.get(`/api/ledger/${circleId}/checkpoint`, { headers: auth(session) })
  expect(answer.status()).toBe(200)
  const { checkpoint } = (await answer.json()) as { checkpoint: string }
  return checkpoint
    .slice(checkpoint.indexOf('\n\n') + 2)
    .trim()
    .split('\n')
    .slice(1)
}

const fingerprint = (page: Page) => page.getByTestId('circle-fingerprint-code')
const splitAlarm = (page: Page) =>
  page.getByRole('alert').filter({ hasText: 'Members are shown different histories' })

async function downloadEvidence(page: Page) {
  const download = page.waitForEvent('download')
  await splitAlarm(page).getByRole('button', { name: 'Download evidence' }).click()
  return JSON.parse(await readFile(await (await download).path(), 'utf8'))
}

test('each member’s device cosigns the checkpoint it verified, both read the same fingerprint, and sign-out takes the key', async ({
  page,
  browser,
  request,
  baseURL,
  axe,
}) => {
  test.setTimeout(120_000)
  const { ida, ben, circleId } = await circleWithBlocks(request, 'witness-honest', 2)
  await signInAs(page, ida)
  await page.goto(`/blockchain/circle/${circleId}`)
  await expect(page.getByText('Verified on this device')).toBeVisible()
  await expect(fingerprint(page)).toHaveText(/^\d{4}( \d{4}){5}$/)
  await expect(
    page.getByText('From the checkpoint of 2 blocks this device checked and cosigned.'),
  ).toBeVisible()
  await expect.poll(() => cosignatureLines(request, ida, circleId)).toHaveLength(1)

  const other = await secondBrowser(browser, baseURL!)
  try {
    await signInAs(other.page, ben)
    const posts: string[] = []
    other.page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().includes('/api/ledger/')) posts.push(new URL(r.url()).pathname)
    })
    await other.page.goto(`/blockchain/circle/${circleId}`)
    await expect(other.page.getByText('Verified on this device')).toBeVisible()
    await expect(fingerprint(other.page)).toHaveText((await fingerprint(page).textContent())!)
    await expect.poll(() => cosignatureLines(request, ida, circleId)).toHaveLength(2)
    // Checked again (a reload, the other device's live cosignature): nothing is sent twice.
    await other.page.reload()
    await expect(other.page.getByText('Verified on this device')).toBeVisible()
    await expect(splitAlarm(page)).toHaveCount(0)
    expect(await cosignatureLines(request, ida, circleId)).toHaveLength(2)
    // The key registered once, the checkpoint cosigned once.
    expect(posts).toEqual(['/api/ledger/witness-keys', `/api/ledger/${circleId}/cosignatures`])

    // The printed certificate carries both cosignatures and the keys they verify with, offline.
    await page.goto(`/blockchain/circle/${circleId}`)
    await page.getByRole('link', { name: 'Block #0' }).click()
    await page.getByRole('link', { name: 'Certificate' }).click()
    const article = page.locator('article')
    await expect(article.getByText("2 members' devices, whose keys are below")).toBeVisible()
    const keyList = article.getByRole('region', { name: 'Witness keys (C2SP cosignature, Ed25519)' })
    await expect(keyList.getByRole('listitem')).toHaveCount(2)
    await expect(article.locator('pre')).toContainText(`/witness/${ben.user.id}/`)
    await expect(article.locator('pre')).toContainText(`/witness/${ida.user.id}/`)
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'certificate-cosigned-en-1280')
    await page.goto(`/blockchain/circle/${circleId}`)

    const keys = await request.get('/api/ledger/witness-keys', { headers: auth(ben) })
    expect(((await keys.json()) as { witnessKeys: unknown[] }).witnessKeys).toHaveLength(1)

    // Sign-out removes this device's key from the server (and its cosignature with it).
    await other.page.getByRole('button', { name: 'Log out' }).click()
    await expect(other.page).toHaveURL(/\/$/)
    const login = await request.post('/api/users/login', {
      data: { email: ben.user.email, password: PASSWORD },
    })
    const again = (await login.json()) as Session
    const after = await request.get('/api/ledger/witness-keys', { headers: auth(again) })
    expect(((await after.json()) as { witnessKeys: unknown[] }).witnessKeys).toEqual([])
    expect(await cosignatureLines(request, ida, circleId)).toHaveLength(1)
  } finally {
    await other.context.close()
  }

  await expectAccessible(page, axe)
  await screenshotScreen(page, 'ledger-fingerprint-en-1280')
  await page.setViewportSize({ width: 390, height: 844 })
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'ledger-fingerprint-en-390')
  await useGerman(page)
  await page.reload()
  await expect(page.getByRole('heading', { name: 'Fingerabdruck des Kreises' })).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'ledger-fingerprint-de-390')
})

test('the operator shows two members two histories: each device raises the split-view alarm once the other’s cosignature arrives', async ({
  page,
  browser,
  request,
  baseURL,
  axe,
}) => {
  const databaseUrl = process.env.E2E_DATABASE_URL
  const signingKey = process.env.E2E_LEDGER_SIGNING_KEY
  test.skip(
    !databaseUrl || !signingKey,
    'needs the PostgreSQL run (e2e-pair): the operator edits the database',
  )
  test.setTimeout(120_000)
  const { ida, ben, circleId } = await circleWithBlocks(request, 'witness-split', 3)

  // Ida's device checks the honest log and cosigns it; her page stays open, connected.
  await signInAs(page, ida)
  const live = liveConnection(page)
  await page.goto(`/blockchain/circle/${circleId}`)
  await live
  await expect(page.getByText(/signed checkpoint of 3 blocks/)).toBeVisible()
  await expect.poll(() => cosignatureLines(request, ida, circleId)).toHaveLength(1)
  const idaFingerprint = (await fingerprint(page).textContent())!

  // The operator rewrites block #0 and re-signs everything with the server's key: from now on the server
  // shows the other history, while Ida's device keeps the one it cosigned.
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await rewriteHistory(client, circleId, signingKey!, { height: 0, toName: 'Mallory' })
  } finally {
    await client.end()
  }

  // Ben's device never saw the honest log: the rewritten one verifies, but Ida's cosignature served
  // with it is over another tree of 3 blocks.
  const other = await secondBrowser(browser, baseURL!)
  try {
    await signInAs(other.page, ben)
    await other.page.goto(`/blockchain/circle/${circleId}`)
    await expect(other.page.getByText('Ida Owner handed Ladder 1 to Mallory, accepted')).toBeVisible()
    await expect(splitAlarm(other.page)).toContainText(
      "Ida Owner's device cosigned a checkpoint of 3 blocks of Linden Street with other contents than the one this device checked",
    )
    await expect(other.page.getByText('Verified on this device')).toHaveCount(0)
    await expect(fingerprint(other.page)).not.toHaveText(idaFingerprint)
    const benEvidence = await downloadEvidence(other.page)
    expect(benEvidence).toMatchObject({ kind: 'circles-ledger-evidence', circleId, reason: 'split-view' })
    expect(benEvidence.splitView).toMatchObject({
      kind: 'other-root',
      size: 3,
      witness: { userId: ida.user.id, memberName: 'Ida Owner' },
      ownAccount: false,
    })
    expect(benEvidence.received).toContain(benEvidence.splitView.line)

    // Ben's device cosigned what it verified; the live event reaches Ida's open page, which checks again
    // within seconds: the server's checkpoint, cosigned by Ben, forks from the one her device kept.
    await expect(splitAlarm(page)).toContainText(
      "Ben Neighbour's device cosigned the checkpoint of 3 blocks of Linden Street the server gave now, which does not extend the 3 blocks",
      { timeout: 15_000 },
    )
    const idaEvidence = await downloadEvidence(page)
    expect(idaEvidence.splitView).toMatchObject({
      kind: 'inconsistent',
      size: 3,
      witness: { userId: ben.user.id },
    })
    // Both signed notes, and Ben's line on the one he cosigned.
    expect(idaEvidence.remembered.size).toBe(3)
    expect(idaEvidence.received).toContain(idaEvidence.splitView.line)
    const text = (note: string) => note.slice(0, note.indexOf('\n\n'))
    expect(text(idaEvidence.remembered.note)).not.toBe(text(idaEvidence.received))
    expect(text(benEvidence.received)).toBe(text(idaEvidence.received))
    await expect(fingerprint(page)).toHaveText(idaFingerprint)

    await expectAccessible(page, axe)
    await screenshotScreen(page, 'ledger-split-view-en-1280')
    await other.page.setViewportSize({ width: 390, height: 844 })
    await expectAccessible(other.page, axe)
    await screenshotScreen(other.page, 'ledger-split-view-en-390')
  } finally {
    await other.context.close()
  }
})

// Issue 23, the guards: a double click does one thing (invite, handover request, delete), a renamed text
// file is no picture, a late 401 for an old token leaves a new session alone, and a camera that starts
// after its dialog closed is stopped. Against the real server; nothing of ours is mocked.
import type { Page, Route } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import { readAllEmails, waitForEmail, extractLink } from '../support/mail'
import { PASSWORD, logIn, openForm, screenshotScreen, toast, uniqueEmail, useGerman } from './auth-support'
import { createCircle, createSignedInUser, joinCircle, signInAs, type Session } from './circles-support'
import { createItem } from './handovers-support'

const auth = (session: Session) => ({ Authorization: `Bearer ${session.token}` })
/** LIMITS.logoutDelayMs (spec 000 §4): how long after a 401 the app ends a session. */
const LOGOUT_DELAY_MS = 100

/** Resolves after every timer the page set up to `ms` from now has run: timers fire in order. */
const pageTimersPassed = (page: Page, ms: number) =>
  page.evaluate((delay) => new Promise<void>((resolve) => setTimeout(resolve, delay)), ms)

test('a double click on Send invitation sends one email, and its link still works', async ({
  page,
  request,
}) => {
  const admin = await createSignedInUser(request, 'guard-invite', 'Grace Hopper')
  const circleId = await createCircle(request, admin, { name: 'Double Click Club' })
  const invitee = uniqueEmail('guard-invitee')
  await signInAs(page, admin)
  await page.goto(`/circles/${circleId}`)
  const card = page.getByRole('region', { name: 'Invite people' })
  await card.getByRole('button', { name: 'Invite by email' }).click()
  await card.getByLabel('Email address').fill(invitee)
  await card.getByRole('button', { name: 'Send invitation' }).dblclick()
  await expect(toast(page, 'success', 'Invitation sent')).toBeVisible()
  await expect(toast(page, 'error', /.+/)).toHaveCount(0)

  // A later invitation is the sentinel: once its email is in, a second one to the invitee would be too.
  const sentinel = uniqueEmail('guard-sentinel')
  const later = await request.post(`/api/circles/${circleId}/users`, {
    data: { email: sentinel },
    headers: auth(admin),
  })
  expect(later.status()).toBe(201)
  await waitForEmail(sentinel, { timeoutMs: 30_000 })
  const toInvitee = (await readAllEmails()).filter((email) => email.to.includes(invitee.toLowerCase()))
  expect(toInvitee).toHaveLength(1)

  const token = new URL(extractLink(toInvitee[0]!, '/join?token=')).searchParams.get('token') ?? ''
  const verified = await request.get(`/api/circles/invitations/${token}/verify`)
  expect(verified.status(), await verified.text()).toBe(200)
  const listed = await request.get(`/api/circles/${circleId}/invitations`, { headers: auth(admin) })
  const { invitations } = (await listed.json()) as { invitations: { email: string }[] }
  expect(invitations.filter((i) => i.email === invitee.toLowerCase())).toHaveLength(1)
})

test('a double click on Send handover request shows only the success', async ({ page, request }) => {
  const owner = await createSignedInUser(request, 'guard-owner', 'Ada Owner')
  const receiver = await createSignedInUser(request, 'guard-receiver', 'Ben Receiver')
  const circleId = await createCircle(request, owner, { name: 'Handover Club' })
  await joinCircle(request, circleId, owner, receiver)
  const itemId = await createItem(request, owner, circleId, { name: 'Ladder' })
  await signInAs(page, owner)
  await page.goto(`/items/${itemId}/handover`)
  await page.getByLabel('Receiver').selectOption({ label: 'Ben Receiver' })
  await page.getByRole('button', { name: 'Send handover request' }).dblclick()
  await expect(page.getByText('Handover request sent')).toBeVisible()
  // Every answer has come back once the item's history lists the request.
  await expect(page.getByText(/pending/i).first()).toBeVisible()
  await expect(page.getByRole('alert').filter({ hasText: /already|error|failed/i })).toHaveCount(0)
  await expect(toast(page, 'error', /.+/)).toHaveCount(0)
  const list = await request.get(`/api/handovers/item/${itemId}`, { headers: auth(owner) })
  expect(((await list.json()) as { handovers: unknown[] }).handovers).toHaveLength(1)
})

test("a double click on the delete dialog's button deletes once, with no 'Not found'", async ({
  page,
  request,
}) => {
  const owner = await createSignedInUser(request, 'guard-delete', 'Dee Leter')
  const circleId = await createCircle(request, owner, { name: 'Delete Club' })
  const itemId = await createItem(request, owner, circleId, { name: 'Old kettle' })
  const deletes: number[] = []
  page.on('response', (response) => {
    if (response.request().method() === 'DELETE' && response.url().endsWith(`/api/items/${itemId}`))
      deletes.push(response.status())
  })
  await signInAs(page, owner)
  await page.goto(`/items/${itemId}`)
  await page.getByRole('button', { name: 'Delete item' }).first().click()
  const dialog = page.getByRole('dialog', { name: 'Delete this item?' })
  await dialog.getByRole('button', { name: 'Delete item' }).dblclick()
  await expect(toast(page, 'success', 'Item deleted')).toBeVisible()
  await expect(page).not.toHaveURL(new RegExp(`/items/${itemId}$`))
  await expect(toast(page, 'error', /.+/)).toHaveCount(0)
  await expect(page.getByText('Not found', { exact: true })).toHaveCount(0)
  expect(deletes).toEqual([200])
})

test('a text file renamed .jpg is refused at the pick; nothing is saved until a real picture or none is chosen', async ({
  page,
  request,
}) => {
  const owner = await createSignedInUser(request, 'guard-picture', 'Pic Ture')
  const circleId = await createCircle(request, owner, { name: 'Picture Club' })
  const posts: string[] = []
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/items(\/|$)/.test(new URL(r.url()).pathname)) posts.push(r.url())
  })
  await signInAs(page, owner)
  await page.goto(`/circle/${circleId}/items`)
  await page.getByRole('button', { name: 'Add First Item' }).click()
  await page.getByLabel('Name').fill('Notebook')
  await page.getByLabel('Picture').setInputFiles({
    name: 'notes.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from('just some notes, not a photo\n'),
  })
  const message = 'Invalid file type. Please upload a JPEG, PNG, or WebP image.'
  await expect(toast(page, 'error', message)).toBeVisible()
  await expect(page.getByLabel('Picture')).toHaveAccessibleDescription(
    new RegExp(message.replace(/\./g, '\\.')),
  )
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await screenshotScreen(page, `guards-picture-refused-en-${width}`)
  }
  await page.getByRole('button', { name: 'Save item' }).click()
  await expect(page.getByText('Picture: notes.jpg')).toHaveCount(0)
  const items = await request.get(`/api/items/circle/${circleId}`, { headers: auth(owner) })
  expect(((await items.json()) as { items: unknown[] }).items).toHaveLength(0)
  expect(posts).toEqual([])

  await page.getByRole('button', { name: 'Continue without a picture' }).click()
  await page.getByRole('button', { name: 'Save item' }).click()
  await expect(toast(page, 'success', 'Item created')).toBeVisible()
  await expect(page.getByText('Compression failed, using original file')).toHaveCount(0)
  expect(posts).toHaveLength(1)

  // The same in German.
  await useGerman(page)
  await page.goto(`/circle/${circleId}/items`)
  await page.getByRole('button', { name: 'Gegenstand hinzufügen' }).click()
  await page.getByLabel('Foto', { exact: true }).setInputFiles({
    name: 'notizen.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from('nur Notizen\n'),
  })
  await expect(page.getByRole('button', { name: 'Ohne Foto weiter' })).toBeVisible()
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await screenshotScreen(page, `guards-picture-refused-de-${width}`)
  }
})

test('a 401 for an old token, arriving after a new sign-in in another tab, keeps the new session', async ({
  page,
  context,
  request,
}) => {
  const session = await createSignedInUser(request, 'guard-late401', 'Lou Late')
  // Hold a change of name, sent with the first token (a query would be cancelled when the session
  // changes; a change is not).
  let held: Route | undefined
  const holding = new Promise<void>((resolve) => {
    void page.route('**/api/users/me', async (route) => {
      if (held || route.request().method() !== 'PUT') return route.continue()
      held = route
      resolve()
    })
  })
  await signInAs(page, session)
  await page.goto('/profile')
  await page.getByRole('button', { name: 'Edit' }).first().click()
  await page.getByLabel('Name').fill('Lou Later')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await holding

  // The first token stops being valid (a password reset ends every session), and the user signs in
  // again in a second tab: both tabs now share the new session.
  const newPassword = `${PASSWORD}-new`
  const asked = await request.post('/api/users/request-password-reset', {
    data: { email: session.user.email },
  })
  expect(asked.status()).toBe(200)
  const link = extractLink(
    await waitForEmail(session.user.email, { subject: /reset/i, timeoutMs: 30_000 }),
    '/reset-password?token=',
  )
  const reset = await request.post('/api/users/reset-password', {
    data: { token: new URL(link).searchParams.get('token'), newPassword, confirmPassword: newPassword },
  })
  expect(reset.status(), await reset.text()).toBe(200)
  const second = await context.newPage()
  await openForm(second, '/login')
  // The new tab starts with the refused token: /login sends it to the dashboard, whose first answer
  // (401) ends that session and brings the form back. Only then is there a form to fill.
  await expect.poll(() => second.evaluate(() => localStorage.getItem('token'))).toBeNull()
  await expect(second).toHaveURL(/\/login(\?|$)/)
  await expect(second.getByRole('main').locator('button[type="submit"]').first()).toBeEnabled()
  await logIn(second, session.user.email, newPassword)
  await second.waitForURL('**/dashboard')
  const fresh = await second.evaluate(() => localStorage.getItem('token'))
  expect(fresh).not.toBe(session.token)
  await expect.poll(() => page.evaluate(() => localStorage.getItem('token'))).toBe(fresh)

  // Now the old request reaches the server, which answers 401 for the old token.
  const answered = page.waitForResponse(
    (r) => r.url().endsWith('/api/users/me') && r.request().method() === 'PUT',
  )
  await held!.continue()
  expect((await answered).status()).toBe(401)
  await pageTimersPassed(page, LOGOUT_DELAY_MS * 2)
  await pageTimersPassed(second, LOGOUT_DELAY_MS * 2)

  expect(await second.evaluate(() => localStorage.getItem('token'))).toBe(fresh)
  await expect(second).toHaveURL(/\/dashboard$/)
  await expect(page).toHaveURL(/\/profile$/)
  await expect(second.getByRole('button', { name: 'Log out' })).toBeVisible()
})

test('the camera dialog closed while the camera starts leaves no track live', async ({ page, request }) => {
  const owner = await createSignedInUser(request, 'guard-camera', 'Cam Closer')
  const circleId = await createCircle(request, owner, { name: 'Camera Club' })
  // Records every track the page gets, and answers getUserMedia only when the test says so.
  await page.addInitScript(() => {
    const w = window as unknown as {
      __tracks: MediaStreamTrack[]
      __asked: number
      __release: () => void
    }
    w.__tracks = []
    w.__asked = 0
    const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices)
    let release: () => void = () => undefined
    const released = new Promise<void>((resolve) => (release = resolve))
    w.__release = () => release()
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      w.__asked++
      const stream = await original(constraints)
      w.__tracks.push(...stream.getTracks())
      await released
      return stream
    }
  })
  await signInAs(page, owner)
  await page.goto(`/circle/${circleId}/items`)
  await page.getByRole('button', { name: 'Add First Item' }).click()
  await page.getByRole('button', { name: 'Take photo' }).click()
  await expect(page.getByRole('dialog', { name: 'Take Photo' })).toBeVisible()
  await expect.poll(() => page.evaluate(() => (window as unknown as { __asked: number }).__asked)).toBe(1)
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click()
  await expect(page.getByRole('dialog')).toBeHidden()

  // The camera answers after the dialog closed.
  await page.evaluate(() => (window as unknown as { __release: () => void }).__release())
  await expect
    .poll(() =>
      page.evaluate(() =>
        (window as unknown as { __tracks: MediaStreamTrack[] }).__tracks.map((track) => track.readyState),
      ),
    )
    .toEqual(['ended'])
})

import { readFile } from 'node:fs/promises'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import { expectShownFor } from '../support/clock'
import { expect, test } from '../support/fixtures'
import { extractLink, waitForEmail } from '../support/mail'
import {
  PASSWORD,
  createVerifiedUser,
  expectAccessible,
  screenshotScreen,
  toast,
  uniqueEmail,
} from './auth-support'
import {
  HEX64,
  apiToken,
  createCircle,
  invitationsCard,
  inviteViaApi,
  setLanguage,
  signIn,
  signOut,
} from './invitations-support'

const CARD = '[data-circle-invitations]'
const INVITED_SUBJECT = /invited you to|eingeladen/
const NOT_FOUND = 'Invitation not found. Please check the URL or request a new invitation.'

const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? ''

test.describe('invitations', () => {
  test('by email: admin invites → email → visitor logs in or registers → accepts → circle', async ({
    page,
    request,
    axe,
  }) => {
    const admin = await createVerifiedUser(request, 'inv-admin', 'Grace Hopper')
    const circle = await createCircle(request, await apiToken(request, admin.email), 'Makerspace Tools')

    await signIn(page, admin.email)
    await page.goto(`/circles/${circle.id}`)
    const card = invitationsCard(page)
    await expect(card.getByText('No pending invitations.')).toBeVisible()

    // The invite and QR panels toggle; while one is open both buttons are hidden (spec 001 §2).
    await card.getByRole('button', { name: 'Invite by email' }).click()
    await expect(card.getByRole('button', { name: 'Invite by email' })).toHaveCount(0)
    await expect(card.getByRole('button', { name: 'Share QR code' })).toHaveCount(0)
    await expect(card.getByLabel('Email address')).toBeFocused()
    await card.getByRole('button', { name: 'Send invitation' }).click()
    await expect(toast(page, 'error', 'Email is required')).toBeVisible()
    await card.getByLabel('Email address').fill('not-an-email')
    await card.getByRole('button', { name: 'Send invitation' }).click()
    await expect(card.getByLabel('Email address')).toHaveAccessibleDescription(
      'Please enter a valid email address',
    )

    const invitee = uniqueEmail('invitee')
    await card.getByLabel('Email address').fill(invitee)
    await axe.expectNoA11yViolations(page, { include: [CARD] })
    await card.getByRole('button', { name: 'Send invitation' }).click()
    await expect(toast(page, 'success', 'Invitation sent')).toBeVisible()
    await expect(card.getByRole('button', { name: 'Invite by email' })).toBeFocused()
    const row = card.getByRole('listitem').filter({ hasText: invitee })
    await expect(row).toContainText('Pending')
    await expect(row).toContainText('Email')
    await expect(row).toContainText('Expires in 7 days')

    // The invitee's email, opened by a visitor: kept, and sent to /login with the invitation banner.
    const link = extractLink(await waitForEmail(invitee, { subject: INVITED_SUBJECT }), '/join?token=')
    const token = tokenOf(link)
    expect(token).toMatch(HEX64)
    await signOut(page)
    await page.goto(link)
    await page.waitForURL(/\/login\?returnUrl=/)
    expect(new URL(page.url()).searchParams.get('returnUrl')).toBe(`/join?token=${token}`)
    await expect(page.getByText('Circle Invitation', { exact: true })).toBeVisible()
    // It names the circle and who invited (issue 23).
    await expect(
      page.getByText(/invited you to join “Makerspace Tools”\. Log in or create an account/),
    ).toBeVisible()
    await expect(page.getByLabel('Email')).toHaveValue(invitee)
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'invitations-login-banner-en-1280')

    // Register with the invited address (read-only), verified at once by the invitation.
    await page.getByRole('link', { name: 'Create an account' }).click()
    await page.waitForURL('**/register?**')
    await expect(page.getByRole('main').locator('button[type="submit"]')).toBeEnabled()
    await expect(page.getByLabel('Email')).toHaveValue(invitee)
    await expect(page.getByLabel('Email')).not.toBeEditable()
    await expect(page.getByText("You've been invited to a circle")).toBeVisible()
    await page.getByLabel('Name').fill('Ada Lovelace')
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByLabel('Confirm password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Create account' }).click()

    // Signed in and back at the invitation.
    await page.waitForURL(`**/join?token=${token}`)
    await expect(
      page.getByRole('heading', { level: 1, name: "You're invited to Makerspace Tools" }),
    ).toBeVisible()
    await expect(page.getByText(/^Grace Hopper invited you to join this circle/)).toBeVisible()
    await expect(page.getByText('Different email address')).toHaveCount(0)
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'invitations-join-pending-en-1280')

    await page.getByRole('button', { name: 'Accept invitation' }).click()
    await expect(toast(page, 'success', 'Successfully joined circle')).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Makerspace Tools' })).toBeVisible()
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'invitations-join-joined-en-1280')
    await page.waitForURL(`**/circles/${circle.id}`, { timeout: 5_000 })
    await expect(page.getByRole('heading', { level: 1, name: 'Makerspace Tools' })).toBeVisible()
    await expect(page.getByRole('main').getByText('Ada Lovelace', { exact: true })).toBeVisible()
    // A member, not the admin: no invitations card.
    await expect(invitationsCard(page)).toHaveCount(0)
    expect(
      await page.evaluate(() => [
        localStorage.getItem('pending_invitation_token'),
        localStorage.getItem('invitation_email'),
        localStorage.getItem('returnUrl'),
      ]),
    ).toEqual([null, null, null])
  })

  test('by QR code: generate, copy, download; an existing user accepts; another address warns', async ({
    page,
    request,
    axe,
    context,
    baseURL,
  }) => {
    test.setTimeout(90_000)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
    await page.clock.install()
    const admin = await createVerifiedUser(request, 'qr-admin', 'Grace Hopper')
    const member = await createVerifiedUser(request, 'qr-member', 'Alan Turing')
    const circle = await createCircle(request, await apiToken(request, admin.email), 'Repair Café')

    await signIn(page, admin.email)
    await page.goto(`/circles/${circle.id}`)
    const card = invitationsCard(page)
    await card.getByRole('button', { name: 'Share QR code' }).click()
    await expect(card.getByRole('button', { name: 'Invite by email' })).toHaveCount(0)
    await card.getByRole('button', { name: 'Generate QR code' }).click()
    await expect(card.getByLabel("Invitee's email")).toHaveAccessibleDescription('Email is required')

    await card.getByLabel("Invitee's email").fill(member.email)
    await card.getByRole('button', { name: 'Generate QR code' }).click()
    await expect(toast(page, 'success', 'QR code generated successfully!')).toBeVisible()
    const code = card.getByRole('img', { name: `QR code inviting ${member.email}` })
    await expect(code).toBeVisible()
    expect((await code.boundingBox())?.width).toBe(200)
    const link = await card.getByLabel('Invitation link').inputValue()
    expect(link.startsWith(`${baseURL}/join?token=`)).toBe(true)
    expect(tokenOf(link)).toMatch(HEX64)
    await expect(card.getByRole('listitem').filter({ hasText: member.email })).toContainText('QR code')

    // The notice goes after 3 s (spec 001), on the page's clock.
    const copied = card.getByText('Invitation link copied to clipboard!')
    await expectShownFor(page, copied, 3_000, () => card.getByRole('button', { name: 'Copy link' }).click(), {
      whileShown: async () => {
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link)
      },
    })
    await axe.expectNoA11yViolations(page, { include: [CARD] })
    await screenshotScreen(page, 'invitations-qr-panel-en-1280')

    const downloading = page.waitForEvent('download')
    await card.getByRole('button', { name: 'Download PNG' }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toBe(`invitation-${member.email}.png`)
    const png = await readFile(await download.path())
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a')
    // The file is a QR code of exactly the link shown (spec 001 §2: {host}/join?token=…).
    const image = PNG.sync.read(png)
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(link)

    // 'Create Another QR Code' clears the email and the token; a second code for an address without an account.
    await card.getByRole('button', { name: 'Create Another QR Code' }).click()
    await expect(card.getByLabel("Invitee's email")).toHaveValue('')
    await expect(card.getByLabel('Invitation link')).toHaveCount(0)
    const other = uniqueEmail('qr-other')
    await card.getByLabel("Invitee's email").fill(other)
    await card.getByRole('button', { name: 'Generate QR code' }).click()
    await expect(card.getByRole('img', { name: `QR code inviting ${other}` })).toBeVisible()
    const otherLink = await card.getByLabel('Invitation link').inputValue()
    await card.getByRole('button', { name: 'Close' }).click()
    await expect(card.getByRole('button', { name: 'Share QR code' })).toBeFocused()

    // The existing user follows the link: login, back to the invitation, accept, the circle.
    await signOut(page)
    await page.goto(link)
    await page.waitForURL(/\/login\?returnUrl=/)
    await expect(page.getByText('Circle Invitation', { exact: true })).toBeVisible()
    await expect(page.getByLabel('Email')).toHaveValue(member.email)
    await page.getByRole('button', { name: 'Continue with password' }).click()
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Log in', exact: true }).click()
    await page.waitForURL(`**/join?token=${tokenOf(link)}`)
    await expect(page.getByRole('heading', { level: 1, name: "You're invited to Repair Café" })).toBeVisible()
    await page.getByRole('button', { name: 'Accept invitation' }).click()
    await expect(toast(page, 'success', 'Successfully joined circle')).toBeVisible()
    await page.waitForURL(`**/circles/${circle.id}`, { timeout: 5_000 })

    // A link made for another address: both addresses shown, accepting still allowed.
    await page.goto(otherLink)
    await expect(page.getByText('Different email address')).toBeVisible()
    const warning = page
      .getByRole('main')
      .locator('div')
      .filter({ hasText: /^Different email address/ })
    await expect(warning.first()).toContainText(other)
    await expect(warning.first()).toContainText(member.email)
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'invitations-join-mismatch-en-1280')
    await page.getByRole('button', { name: 'Accept invitation' }).click()
    await expect(toast(page, 'success', 'Welcome back! You are already a member')).toBeVisible()
    await page.waitForURL(`**/circles/${circle.id}`, { timeout: 5_000 })
  })

  test('pending invitations: resend replaces the link, cancel asks first and ends it', async ({
    page,
    request,
    axe,
  }) => {
    const admin = await createVerifiedUser(request, 'pending-admin', 'Grace Hopper')
    const adminToken = await apiToken(request, admin.email)
    const circle = await createCircle(request, adminToken, 'Allotment')
    const invitee = uniqueEmail('resend')
    await inviteViaApi(request, adminToken, circle.id, invitee)
    const first = extractLink(await waitForEmail(invitee, { subject: INVITED_SUBJECT }), '/join?token=')

    await signIn(page, admin.email)
    await page.goto(`/circles/${circle.id}`)
    const card = invitationsCard(page)
    await expect(card.getByRole('listitem').filter({ hasText: invitee })).toContainText('Pending')
    await screenshotScreen(page, 'invitations-pending-list-en-1280')

    const since = new Date(Date.now() - 1_000)
    await card.getByRole('button', { name: `Resend invitation to ${invitee}` }).click()
    await expect(toast(page, 'success', 'Invitation sent again')).toBeVisible()
    const resent = await waitForEmail(invitee, { subject: INVITED_SUBJECT, since })
    const second = extractLink(resent, '/join?token=')
    expect(tokenOf(second)).toMatch(HEX64)
    expect(tokenOf(second)).not.toBe(tokenOf(first))

    // The old link is dead now.
    await page.goto(first)
    await expect(page.getByRole('alert')).toHaveText(NOT_FOUND)

    await page.goto(`/circles/${circle.id}`)
    await card.getByRole('button', { name: `Cancel invitation to ${invitee}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Cancel this invitation?' })
    await expect(dialog).toContainText(invitee)
    await axe.expectNoA11yViolations(page, { include: [CARD] })
    await screenshotScreen(page, 'invitations-cancel-dialog-en-1280')
    await dialog.getByRole('button', { name: 'Keep it' }).click()
    await expect(dialog).toBeHidden()
    await expect(card.getByRole('listitem').filter({ hasText: invitee })).toBeVisible()

    await card.getByRole('button', { name: `Cancel invitation to ${invitee}` }).click()
    await dialog.getByRole('button', { name: 'Cancel invitation' }).click()
    await expect(toast(page, 'success', 'Invitation cancelled')).toBeVisible()
    await expect(card.getByText('No pending invitations.')).toBeVisible()
    await expect(card.getByRole('listitem')).toHaveCount(0)

    await page.goto(second)
    await expect(page.getByRole('alert')).toHaveText(NOT_FOUND)
  })

  test('/join errors: missing, malformed and unknown tokens', async ({ page, request, axe }) => {
    await page.goto('/join')
    await expect(page.getByRole('alert')).toHaveText('No invitation token found')
    await expect(page.getByRole('link', { name: 'Go to dashboard' })).toHaveAttribute('href', '/dashboard')
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'invitations-join-missing-en-1280')

    await page.goto('/join?token=abc123')
    await expect(page.getByRole('alert')).toHaveText(
      'Invalid invitation token format. Expected hex string, got: abc123',
    )
    expect(await page.evaluate(() => localStorage.getItem('pending_invitation_token'))).toBeNull()

    const user = await createVerifiedUser(request, 'join-errors')
    await signIn(page, user.email)
    await page.goto(`/join?token=${'f'.repeat(64)}`)
    await expect(page.getByRole('heading', { level: 1, name: "This invitation can't be used" })).toBeVisible()
    await expect(page.getByRole('alert')).toHaveText(NOT_FOUND)
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'invitations-join-not-found-en-1280')
  })
})

const LABELS = {
  en: {
    invite: 'Invite by email',
    qr: 'Share QR code',
    close: 'Close',
    qrEmail: "Invitee's email",
    generate: 'Generate QR code',
    pending: "You're invited to",
  },
  de: {
    invite: 'Per E-Mail einladen',
    qr: 'QR-Code teilen',
    close: 'Schließen',
    qrEmail: 'E-Mail der eingeladenen Person',
    generate: 'QR-Code erstellen',
    pending: 'Du bist zu',
  },
} as const

test('screens: panels and /join in English and German at 1280 and 390 px', async ({ page, request, axe }) => {
  test.setTimeout(120_000)
  const admin = await createVerifiedUser(request, 'screens-admin', 'Grace Hopper')
  const adminToken = await apiToken(request, admin.email)
  const circle = await createCircle(request, adminToken, 'Community Workshop')
  await inviteViaApi(request, adminToken, circle.id, uniqueEmail('screens-pending'))
  await signIn(page, admin.email)

  for (const language of ['en', 'de'] as const) {
    const label = LABELS[language]
    await setLanguage(page, language)
    for (const width of [1280, 390]) {
      const suffix = `${language}-${width}`
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await page.goto(`/circles/${circle.id}`)
      const card = invitationsCard(page, language)
      await expect(card.getByRole('listitem').first()).toBeVisible()
      await axe.expectNoA11yViolations(page, { include: [CARD] })
      await screenshotScreen(page, `invitations-pending-${suffix}`)

      await card.getByRole('button', { name: label.invite }).click()
      await axe.expectNoA11yViolations(page, { include: [CARD] })
      await screenshotScreen(page, `invitations-email-panel-${suffix}`)
      await card.getByRole('button', { name: label.close }).click()

      await card.getByRole('button', { name: label.qr }).click()
      await card.getByLabel(label.qrEmail).fill(uniqueEmail(`screens-qr-${suffix}`))
      await card.getByRole('button', { name: label.generate }).click()
      await expect(card.locator('canvas')).toBeVisible()
      const link = await card.locator('input[readonly]').inputValue()
      await axe.expectNoA11yViolations(page, { include: [CARD] })
      await screenshotScreen(page, `invitations-qr-panel-${suffix}`)

      // The admin opening a code made for someone else: the pending state with the mismatch warning.
      await page.goto(link)
      await expect(
        page.getByRole('heading', { level: 1, name: new RegExp(`^${label.pending}`) }),
      ).toBeVisible()
      await expectAccessible(page, axe)
      await screenshotScreen(page, `invitations-join-pending-${suffix}`)

      await page.goto('/join?token=abc123')
      await expect(page.getByRole('alert')).toBeVisible()
      await expectAccessible(page, axe)
      await screenshotScreen(page, `invitations-join-error-${suffix}`)
    }
  }
})

import type { Page } from '@playwright/test'
import { expect, test } from '../support/fixtures'
import {
  PASSWORD,
  createVerifiedUser,
  expectAccessible,
  logIn,
  openForm,
  screenshotScreen,
  toast,
  useGerman,
} from './auth-support'
import { createCircle, createSignedInUser, joinCircle, memberRow, signInAs } from './circles-support'

// The circles screens against the real server: create (with validation), list, inline edit, both
// detail paths, members joining through real invitations, removal, ownership transfer, leaving, the
// 404 for outsiders; then every screen in English and German at 1280 and 390 px, checked with axe.

const UUID = /\/circles\/([0-9a-f-]{36})$/

/** Both widths: axe at each, and a screenshot to look at. */
async function captureScreen(page: Page, axe: Parameters<typeof expectAccessible>[1], name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    // Nothing may be wider than the phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow, `${name} at ${width}px scrolls sideways`).toBeLessThanOrEqual(0)
    await expectAccessible(page, axe)
    await screenshotScreen(page, `${name}-${width}`)
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

test.describe('circles', () => {
  test('create, list, edit, join, remove, transfer, leave and the outsider’s 404', async ({
    page,
    request,
    axe,
  }) => {
    test.setTimeout(180_000)
    const admin = await createVerifiedUser(request, 'circle-admin', 'Ada Lovelace')
    const [ben, cleo, outsider] = await Promise.all([
      createSignedInUser(request, 'circle-ben', 'Ben Ortiz'),
      createSignedInUser(request, 'circle-cleo', 'Cleo Park'),
      createSignedInUser(request, 'circle-out', 'Otto Outsider'),
    ])

    await openForm(page, '/login')
    await logIn(page, admin.email, PASSWORD)
    await page.waitForURL('**/dashboard')

    // The list starts empty, with a way to create the first circle.
    await page.goto('/circles')
    await expect(page.getByRole('heading', { level: 1, name: 'Your circles' })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'No circles yet' })).toBeVisible()
    await page.getByRole('link', { name: 'Create your first circle' }).click()

    // A two-letter name is refused before anything is sent.
    await expect(page).toHaveURL(/\/circles\/create$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Create a circle' })).toBeVisible()
    await page.getByLabel('Name').fill('ab')
    await page.getByRole('button', { name: 'Create circle' }).click()
    await expect(toast(page, 'error', 'Circle name must be at least 3 characters')).toBeVisible()
    await expect(page.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true')
    await expectAccessible(page, axe)

    await page.getByLabel('Name').fill('Maple Street flat')
    await page.getByLabel(/Description/).fill('Tools, the ladder and the good pan.')
    await page.getByRole('button', { name: 'Create circle' }).click()
    await expect(page).toHaveURL(UUID)
    const circleId = UUID.exec(page.url())![1]!
    await expect(toast(page, 'success', 'Circle created')).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name: 'Maple Street flat' })).toBeVisible()
    await expect(page.getByText('Created today')).toBeVisible()
    await expect(page.getByText('No items found')).toBeVisible()

    // Inline edit: the form replaces the heading, saving brings it back with the new text.
    await page.getByRole('button', { name: 'Edit name and description' }).click()
    await expect(page.getByLabel('Name')).toBeFocused()
    await page.getByLabel('Name').fill('Maple St. household')
    await page.getByLabel(/Description/).fill('Everything we lend each other on the second floor.')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect(toast(page, 'success', 'Circle updated')).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name: 'Maple St. household' })).toBeVisible()
    await expect(page.getByText('Everything we lend each other on the second floor.')).toBeVisible()

    // Both path forms are the same screen.
    await page.goto(`/circle/${circleId}`)
    await expect(page.getByRole('heading', { level: 1, name: 'Maple St. household' })).toBeVisible()
    await page.goto('/circles')
    const card = page.getByRole('link', { name: /Maple St\. household/ })
    await expect(card).toHaveAttribute('href', `/circles/${circleId}`)
    await expect(card.getByText('Admin')).toBeVisible()
    await expect(card.getByText('1 member')).toBeVisible()

    // Two people join through real QR invitations.
    const adminSession = {
      token: (await page.evaluate(() => localStorage.getItem('token')))!,
      user: JSON.parse((await page.evaluate(() => localStorage.getItem('user')))!) as {
        id: string
        name: string
        email: string
      },
    }
    await joinCircle(request, circleId, adminSession, ben)
    await joinCircle(request, circleId, adminSession, cleo)
    await card.click()
    await expect(page.getByRole('heading', { name: '3 members' })).toBeVisible()
    await expect(memberRow(page, 'Ben Ortiz').getByText(ben.user.email)).toBeVisible()
    await expect(memberRow(page, 'Ben Ortiz').getByText('Joined today')).toBeVisible()

    // The admin removes Ben, after confirming.
    await memberRow(page, 'Ben Ortiz').getByRole('button', { name: 'Remove Ben Ortiz' }).click()
    const removeDialog = page.getByRole('dialog', { name: 'Remove Ben Ortiz from this circle?' })
    await expect(removeDialog).toBeVisible()
    await expectAccessible(page, axe)
    await removeDialog.getByRole('button', { name: 'Remove member' }).click()
    await expect(toast(page, 'success', 'Member removed')).toBeVisible()
    await expect(removeDialog).toBeHidden()
    await expect(page.getByRole('heading', { name: '2 members' })).toBeVisible()
    await expect(memberRow(page, 'Ben Ortiz')).toHaveCount(0)

    // … and hands the circle to Cleo: the page turns into the member view.
    await memberRow(page, 'Cleo Park').getByRole('button', { name: 'Make Cleo Park the admin' }).click()
    const transferDialog = page.getByRole('dialog', { name: 'Make Cleo Park the admin?' })
    await expect(transferDialog).toContainText('You stay in the circle as a member')
    await transferDialog.getByRole('button', { name: 'Transfer ownership' }).click()
    await expect(toast(page, 'success', 'Ownership transferred')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Edit name and description' })).toHaveCount(0)
    await expect(memberRow(page, 'Cleo Park').getByText('Admin')).toBeVisible()
    await expect(page.getByRole('button', { name: /^Make .* the admin$/ })).toHaveCount(0)

    // Now a member, Ada leaves: back on the list, without the circle.
    await page.getByRole('button', { name: 'Leave circle' }).click()
    const leaveDialog = page.getByRole('dialog', { name: 'Leave “Maple St. household”?' })
    await leaveDialog.getByRole('button', { name: 'Leave circle' }).click()
    await expect(page).toHaveURL(/\/circles$/)
    await expect(toast(page, 'success', 'You left the circle')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'No circles yet' })).toBeVisible()

    // Cleo, the admin now, sees two members gone; Ben, removed, is told so (issue 23); an outsider
    // gets the 404.
    await signInAs(page, cleo)
    await page.goto(`/circles/${circleId}`)
    await expect(page.getByRole('heading', { name: '1 member' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Edit name and description' })).toBeVisible()
    await signInAs(page, ben)
    await page.goto(`/circles/${circleId}`)
    await expect(page.getByRole('heading', { level: 1, name: /^You were removed from / })).toBeVisible()
    for (const stranger of [outsider]) {
      await signInAs(page, stranger)
      await page.goto(`/circles/${circleId}`)
      await expect(page.getByRole('heading', { level: 1, name: 'Circle not found' })).toBeVisible()
      await expect(page.getByText("The page you're looking for doesn't exist.")).toBeVisible()
      await expect(page.getByRole('link', { name: 'Back to dashboard' })).toHaveAttribute(
        'href',
        '/dashboard',
      )
    }
    await expectAccessible(page, axe)
  })
})

const SCREEN_TEXT = {
  en: {
    list: 'Your circles',
    empty: 'No circles yet',
    create: 'Create a circle',
    members: '2 members',
    leave: 'Leave circle',
    edit: 'Edit name and description',
    notFound: 'Circle not found',
  },
  de: {
    list: 'Deine Kreise',
    empty: 'Noch keine Kreise',
    create: 'Kreis gründen',
    members: '2 Mitglieder',
    leave: 'Kreis verlassen',
    edit: 'Name und Beschreibung bearbeiten',
    notFound: 'Kreis nicht gefunden',
  },
}

for (const language of ['en', 'de'] as const) {
  test(`circles screens in ${language.toUpperCase()}: accessible at 1280 and 390 px`, async ({
    page,
    request,
    axe,
  }) => {
    test.setTimeout(180_000)
    const text = SCREEN_TEXT[language]
    if (language === 'de') await useGerman(page)
    const [ada, ben] = await Promise.all([
      createSignedInUser(request, `screens-ada-${language}`, 'Ada Lovelace'),
      createSignedInUser(request, `screens-ben-${language}`, 'Ben Ortiz'),
    ])
    await signInAs(page, ada)

    await page.goto('/circles')
    await expect(page.getByRole('heading', { name: text.empty })).toBeVisible()
    await captureScreen(page, axe, `circles-list-empty-${language}`)

    await page.goto('/circles/create')
    await expect(page.getByRole('heading', { level: 1, name: text.create })).toBeVisible()
    await captureScreen(page, axe, `circles-create-${language}`)

    const flat = await createCircle(request, ada, {
      name: language === 'de' ? 'WG Ahornstraße' : 'Maple Street flat',
      description:
        language === 'de'
          ? 'Werkzeug, die Leiter und die gute Pfanne – alles, was wir uns im zweiten Stock gegenseitig leihen, damit nicht jede Wohnung alles selbst kaufen muss.'
          : 'Tools, the ladder and the good pan – everything we lend each other on the second floor, so that not every flat has to buy everything itself.',
    })
    await joinCircle(request, flat, ada, ben)
    const club = await createCircle(request, ben, {
      name: language === 'de' ? 'Kletterverein' : 'Climbing club',
    })
    await joinCircle(request, club, ben, ada)

    await page.goto('/circles')
    await expect(page.getByRole('main').getByRole('listitem')).toHaveCount(2)
    await expect(page.getByRole('heading', { level: 1, name: text.list })).toBeVisible()
    await captureScreen(page, axe, `circles-list-${language}`)

    await page.goto(`/circles/${flat}`)
    await expect(page.getByRole('heading', { name: text.members })).toBeVisible()
    await captureScreen(page, axe, `circles-detail-admin-${language}`)
    await page.getByRole('button', { name: text.edit }).click()
    await captureScreen(page, axe, `circles-detail-edit-${language}`)

    await signInAs(page, ben)
    await page.goto(`/circle/${flat}`)
    await expect(page.getByRole('button', { name: text.leave })).toBeVisible()
    await captureScreen(page, axe, `circles-detail-member-${language}`)

    await page.goto('/circles/00000000-0000-4000-8000-000000000000')
    await expect(page.getByRole('heading', { level: 1, name: text.notFound })).toBeVisible()
    await captureScreen(page, axe, `circles-not-found-${language}`)
  })
}

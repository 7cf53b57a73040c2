import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import sharp from 'sharp'
import { expect, test } from '../support/fixtures'
import { expectAccessible, screenshotScreen, toast, useGerman } from './auth-support'
import { createCircle, createSignedInUser, joinCircle, memberRow, signInAs } from './circles-support'
import { secondBrowser } from './handovers-support'

// Issue 24: an avatar picture for each account (docs/decisions/0037), against the real server: Ada
// uploads one in 'Profile Information', sees it in the header, Ben sees it in their circle's members
// card from his own browser, Ada removes it and both see the initials again. A non-image is refused at
// the pick.

/** A real picture on disk (a landscape, so the square crop has something to cut). */
async function portrait(name: string) {
  const dir = await mkdtemp(join(tmpdir(), 'circles-e2e-avatar-'))
  const width = 900
  const height = 600
  const bytes = await sharp({ create: { width, height, channels: 3, background: { r: 40, g: 110, b: 170 } } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="450" cy="260" r="150" fill="#f2c14e"/>` +
            `<rect x="300" y="420" width="300" height="180" rx="60" fill="#f78154"/></svg>`,
        ),
      },
    ])
    .jpeg({ quality: 90 })
    .toBuffer()
  const path = join(dir, name)
  await writeFile(path, bytes)
  return path
}

const avatarInput = (page: Page) =>
  page.getByLabel(/^(Add picture|Change picture|Bild hinzufügen|Bild ändern)$/)
const headerAvatar = (page: Page) => page.getByRole('banner').locator('[data-avatar]')
const pictureIn = (where: Locator) => where.locator('img[data-avatar="picture"]')

async function naturalSide(picture: Locator) {
  return picture.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])
}

test('an avatar: upload, seen in the header and by a co-member, removed; a non-image refused', async ({
  page,
  request,
  browser,
  baseURL,
  axe,
}) => {
  // Two browsers, eight screenshots with axe: room for a busy machine.
  test.setTimeout(240_000)
  const ada = await createSignedInUser(request, 'avatar-ada', 'Ada Avatar')
  const ben = await createSignedInUser(request, 'avatar-ben', 'Ben Member')
  const circleId = await createCircle(request, ada, { name: 'Avatar Street' })
  await joinCircle(request, circleId, ada, ben)

  await page.setViewportSize({ width: 1280, height: 900 })
  await signInAs(page, ada)
  await page.goto('/profile')
  const none = page.getByRole('img', { name: 'No profile picture: your initials are shown' })
  await expect(none).toHaveText('AA')
  await expect(headerAvatar(page)).toHaveText('AA')

  // Not a picture: refused at the pick, in words, and nothing is sent.
  const dir = await mkdtemp(join(tmpdir(), 'circles-e2e-avatar-'))
  const notes = join(dir, 'notes.txt')
  await writeFile(notes, 'just some notes, not a photo\n')
  await avatarInput(page).setInputFiles(notes)
  await expect(page.getByRole('alert').filter({ hasText: 'Please select an image file.' })).toBeVisible()
  const renamed = join(dir, 'notes.jpg')
  await writeFile(renamed, 'just some notes, not a photo\n')
  await avatarInput(page).setInputFiles(renamed)
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: 'Invalid file type. Please upload a JPEG, PNG, or WebP image.' }),
  ).toBeVisible()
  await expectAccessible(page, axe)
  await screenshotScreen(page, 'avatar-error-en-1280')
  await expect(none).toBeVisible()

  // A picture: uploaded, re-encoded to a 256 px square, in the header at once.
  await avatarInput(page).setInputFiles(await portrait('ada.jpg'))
  await expect(toast(page, 'success', 'Profile picture updated')).toBeVisible()
  await expect(page.getByRole('alert')).toHaveCount(0)
  const mine = page.getByRole('img', { name: 'Your profile picture' })
  await expect(pictureIn(mine)).toHaveAttribute('src', /^blob:/)
  expect(await naturalSide(pictureIn(mine))).toEqual([256, 256])
  await expect(pictureIn(page.getByRole('banner')).first()).toHaveAttribute('src', /^blob:/)
  await expect(page.getByRole('button', { name: 'Remove picture' })).toBeVisible()

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
    await expectAccessible(page, axe)
    await screenshotScreen(page, `avatar-profile-en-${width}`)
  }
  // On a phone the menu's profile link carries the picture too.
  await page.getByRole('button', { name: 'Menu' }).click()
  const menuProfile = page.getByRole('banner').getByRole('link', { name: 'Profile' })
  await expect(pictureIn(menuProfile)).toHaveAttribute('src', /^blob:/)
  await screenshotScreen(page, 'avatar-menu-en-390')
  await page.getByRole('button', { name: 'Menu' }).click()

  // Ben, in his own browser: Ada's picture in the circle's members card; his own row keeps initials.
  const second = await secondBrowser(browser, baseURL!)
  try {
    const benPage = second.page
    await benPage.setViewportSize({ width: 1280, height: 900 })
    await signInAs(benPage, ben)
    await benPage.goto(`/circles/${circleId}`)
    const adaRow = memberRow(benPage, 'Ada Avatar')
    await expect(pictureIn(adaRow)).toHaveAttribute('src', /^blob:/)
    await expect(memberRow(benPage, 'Ben Member').locator('[data-avatar="initials"]')).toHaveText('BM')
    for (const width of [1280, 390]) {
      await benPage.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await expectAccessible(benPage, axe)
      await screenshotScreen(benPage, `avatar-members-en-${width}`)
    }

    // German: the same card and Ada's profile.
    await useGerman(benPage)
    await benPage.reload()
    await expect(pictureIn(memberRow(benPage, 'Ada Avatar'))).toHaveAttribute('src', /^blob:/)
    for (const width of [1280, 390]) {
      await benPage.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await screenshotScreen(benPage, `avatar-members-de-${width}`)
    }
    await useGerman(page)
    await page.reload()
    await expect(pictureIn(page.getByRole('img', { name: 'Dein Profilbild' }))).toHaveAttribute(
      'src',
      /^blob:/,
    )
    await expect(page.getByRole('button', { name: 'Bild entfernen' })).toBeVisible()
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await expectAccessible(page, axe)
      await screenshotScreen(page, `avatar-profile-de-${width}`)
    }

    // Ada removes it: initials again, for her and for Ben.
    await page.getByRole('button', { name: 'Bild entfernen' }).click()
    await expect(toast(page, 'success', 'Profilbild entfernt')).toBeVisible()
    await expect(
      page.getByRole('img', { name: 'Kein Profilbild: deine Initialen werden gezeigt' }),
    ).toHaveText('AA')
    await page.setViewportSize({ width: 1280, height: 900 })
    await expect(headerAvatar(page)).toHaveText('AA')
    await benPage.reload()
    await expect(memberRow(benPage, 'Ada Avatar').locator('[data-avatar="initials"]')).toHaveText('AA')
    await expect(pictureIn(memberRow(benPage, 'Ada Avatar'))).toHaveCount(0)
  } finally {
    await second.context.close()
  }
})

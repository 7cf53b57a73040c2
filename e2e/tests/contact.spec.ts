// The contact page (spec 000 §2, §5, §8): validation errors as toasts and inline, sending through the
// real API to the SMTP sink, the sent state and "Send another message", the error state.
import type { Page } from '@playwright/test'
import { expect, screenshot, test } from '../support/fixtures'
import { emailText, waitForEmail } from '../support/mail'

/** Set by support/server.ts for the e2e server: where contact messages go. */
const CONTACT_EMAIL = 'contact@circles.test'
const CONSENT_DIALOG = '#cc-main'

const EN = {
  required: 'Please fill in all required fields',
  invalidEmail: 'Please enter a valid email address',
  messageMin: 'Message must be at least 10 characters',
  error: 'There was an error sending your message. Please try again later.',
  sent: 'Thank you for your message. We will get back to you soon.',
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript((selector) => {
    document.addEventListener('DOMContentLoaded', () => {
      const style = document.createElement('style')
      style.textContent = `${selector} { display: none !important; }`
      document.head.append(style)
    })
  }, CONSENT_DIALOG)
})

async function useGerman(page: Page) {
  await page.addInitScript(() => window.localStorage.setItem('language', 'de'))
  await page.context().addCookies([{ name: 'lang', value: 'de', url: process.env.E2E_BASE_URL ?? '' }])
}

/** Sonner's error toast with this text. */
function errorToast(page: Page, text: string) {
  return page.locator('[data-sonner-toast][data-type="error"]').filter({ hasText: text })
}

/** Closes the open toasts with their close buttons (sonner keeps them for 8 s otherwise). */
async function dismissToasts(page: Page) {
  const close = page.locator('[data-sonner-toast]:not([data-removed="true"]) [data-close-button]')
  for (let i = 0; i < 5 && (await close.count()) > 0; i++) await close.first().click()
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0)
}

function fields(page: Page) {
  return {
    name: page.getByLabel('Name'),
    email: page.getByLabel('Email', { exact: true }),
    subject: page.getByLabel('Subject'),
    message: page.getByLabel('Message'),
  }
}

async function openContact(page: Page, width = 1280) {
  await page.setViewportSize({ width, height: width > 500 ? 800 : 844 })
  await page.goto('/contact')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  // The page is prerendered HTML first; the form works once the app runs it.
  await expect(page.locator('form[data-interactive]')).toBeVisible()
}

test('the page: form, subjects, postal address in Germany; screenshots; no axe violations', async ({
  page,
  axe,
}) => {
  await openContact(page)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Get in touch')
  await expect(page).toHaveTitle('Contact · Circles')
  const { subject, message } = fields(page)
  await expect(subject.locator('option')).toHaveText([
    'Choose a subject',
    'General inquiry',
    'Technical support',
    'Feature request',
    'Billing question',
    'Other',
  ])
  const values = await subject
    .locator('option')
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))
  expect(values).toEqual(['', 'general', 'support', 'feature', 'billing', 'other'])
  await expect(message).toHaveAttribute('rows', '5')

  const address = page.locator('address')
  await expect(address).toContainText('Circles GmbH')
  await expect(address).toContainText('10115 Berlin')
  await expect(address).toContainText('Germany')
  await expect(page.getByRole('link', { name: CONTACT_EMAIL })).toHaveAttribute(
    'href',
    `mailto:${CONTACT_EMAIL}`,
  )

  await screenshot(page, 'contact-en-1280')
  await axe.expectNoA11yViolations(page, { exclude: [CONSENT_DIALOG] })

  await page.setViewportSize({ width: 360, height: 740 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshot(page, 'contact-en-390')
})

test('validation errors show as a toast and inline, in the spec order', async ({ page, axe }) => {
  await openContact(page)
  const field = fields(page)
  const send = page.getByRole('button', { name: 'Send message' })

  await send.click()
  await expect(errorToast(page, EN.required)).toBeVisible()
  await expect(page.locator('form').getByText(EN.required)).toHaveCount(4)
  await expect(field.name).toHaveAttribute('aria-invalid', 'true')
  await expect(field.name).toBeFocused()
  await screenshot(page, 'contact-en-1280-errors')
  await axe.expectNoA11yViolations(page, { exclude: [CONSENT_DIALOG] })

  await dismissToasts(page)
  await field.name.fill('Grace Hopper')
  await field.email.fill('grace@navy')
  await field.subject.selectOption('support')
  await field.message.fill('Too short')
  await send.click()
  await expect(errorToast(page, EN.invalidEmail)).toBeVisible()
  await expect(page.locator('form').getByText(EN.invalidEmail)).toBeVisible()
  await expect(page.locator('form').getByText(EN.messageMin)).toBeVisible()
  await expect(page.locator('form').getByText(EN.required)).toHaveCount(0)

  await dismissToasts(page)
  await field.email.fill('grace@example.com')
  await send.click()
  await expect(errorToast(page, EN.messageMin)).toBeVisible()
  await expect(field.message).toHaveAttribute('aria-invalid', 'true')
  await expect(field.email).not.toHaveAttribute('aria-invalid')
})

test('a valid message is sent, confirmed, delivered, and "Send another message" resets the form', async ({
  page,
  axe,
}) => {
  await openContact(page)
  const field = fields(page)
  const sender = `Ada Contact ${Date.now()}`
  const since = new Date()

  await field.name.fill(sender)
  await field.email.fill('  Ada@Example.com ')
  await field.subject.selectOption('feature')
  await field.message.fill('Could a circle have sub-groups for each workshop room?')
  await page.getByRole('button', { name: 'Send message' }).click()

  const heading = page.getByRole('heading', { name: 'Message sent' })
  await expect(heading).toBeVisible()
  await expect(heading).toBeFocused()
  await expect(page.getByText(EN.sent)).toBeVisible()
  await expect(page.locator('form')).toHaveCount(0)
  await screenshot(page, 'contact-en-1280-sent')
  await axe.expectNoA11yViolations(page, { exclude: [CONSENT_DIALOG] })

  // The server stored it and mailed it to CONTACT_EMAIL, with the sender to reply to.
  const mail = await waitForEmail(CONTACT_EMAIL, { subject: new RegExp(sender), since, timeoutMs: 30_000 })
  expect(mail.subject).toBe(`[Contact] feature from ${sender}`)
  expect(emailText(mail)).toContain('Could a circle have sub-groups for each workshop room?')
  expect(emailText(mail)).toContain('ada@example.com')

  await page.getByRole('button', { name: 'Send another message' }).click()
  await expect(page.locator('form')).toBeVisible()
  await expect(field.name).toHaveValue('')
  await expect(field.email).toHaveValue('')
  await expect(field.subject).toHaveValue('')
  await expect(field.message).toHaveValue('')
  await expect(field.name).toBeFocused()
})

test('a failed send says so and keeps the message', async ({ page }) => {
  await page.route('**/api/contact', (route) =>
    route.fulfill({
      status: 500,
      contentType: 'application/json',
      body: '{"message":"Something went wrong"}',
    }),
  )
  await openContact(page)
  const field = fields(page)
  await field.name.fill('Grace Hopper')
  await field.email.fill('grace@example.com')
  await field.subject.selectOption('billing')
  await field.message.fill('Do you offer invoices for the Enterprise plan?')
  await page.getByRole('button', { name: 'Send message' }).click()

  await expect(errorToast(page, EN.error)).toBeVisible()
  await expect(page.getByRole('alert').filter({ hasText: EN.error })).toBeVisible()
  await expect(field.message).toHaveValue('Do you offer invoices for the Enterprise plan?')
  await expect(page.getByRole('heading', { name: 'Message sent' })).toHaveCount(0)
})

test('in German: texts, validation and the address', async ({ page, axe }) => {
  await useGerman(page)
  await openContact(page)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Schreib uns')
  await expect(page.locator('address')).toContainText('Deutschland')
  await screenshot(page, 'contact-de-1280')

  await page.getByRole('button', { name: 'Nachricht senden' }).click()
  const toast = page.locator('[data-sonner-toast][data-type="error"]')
  await expect(toast).toBeVisible()
  await expect(toast).not.toContainText(EN.required)
  await axe.expectNoA11yViolations(page, { exclude: [CONSENT_DIALOG] })

  await page.setViewportSize({ width: 390, height: 844 })
  await dismissToasts(page)
  await screenshot(page, 'contact-de-390')
  await axe.expectNoA11yViolations(page, { exclude: [CONSENT_DIALOG] })
})

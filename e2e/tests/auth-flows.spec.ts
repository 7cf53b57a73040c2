import { expectShownFor } from '../support/clock'
import { expect, test } from '../support/fixtures'
import { extractLink, waitForEmail } from '../support/mail'
import {
  PASSWORD,
  expectAccessible,
  screenshotScreen,
  createUnverifiedUser,
  createVerifiedUser,
  logIn,
  openForm,
  toast,
  uniqueEmail,
  verificationLink,
} from './auth-support'

test.describe('registration and first login', () => {
  test('register → verification email → verify link in the browser → log in → dashboard', async ({
    page,
    axe,
  }) => {
    const email = uniqueEmail('journey')
    await openForm(page, '/register')
    await expect(page).toHaveTitle('Create account · Circles')
    await page.getByLabel('Name').fill('Journey Tester')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByLabel('Confirm password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Create account' }).click()

    await expect(page.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible()
    await expect(
      page.getByText('Registration successful. Please check your email to verify your account.'),
    ).toBeVisible()
    await expect(page.getByRole('link', { name: 'Resend verification email' })).toHaveAttribute(
      'href',
      '/resend-verification',
    )
    expect(await page.evaluate(() => localStorage.getItem('verification_email'))).toBe(email)
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'auth-register-success-en-1280')

    await page.goto(await verificationLink(email))
    await expect(page.getByRole('heading', { level: 1, name: "You're all set" })).toBeVisible()
    await expect(page.getByText('Email verified successfully')).toBeVisible()
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'auth-verify-success-en-1280')
    // Spec 000 §2: on to the login page after 2 s.
    await page.waitForURL('**/login', { timeout: 5_000 })

    await logIn(page, email, PASSWORD)
    await page.waitForURL('**/dashboard')
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome back, Journey Tester' })).toBeVisible()
  })

  test('opening the same verification link again still counts as verified', async ({ page, request }) => {
    const user = await createUnverifiedUser(request, 'twice')
    const link = await verificationLink(user.email)
    await page.goto(link)
    await expect(page.getByRole('heading', { level: 1, name: "You're all set" })).toBeVisible()
    await page.goto(link)
    await expect(page.getByRole('heading', { level: 1, name: "You're all set" })).toBeVisible()
  })

  test('registering an address that has an account says so and links to login', async ({
    page,
    request,
    axe,
  }) => {
    const user = await createVerifiedUser(request, 'exists')
    await openForm(page, '/register')
    await page.getByLabel('Name').fill('Someone Else')
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByLabel('Confirm password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Create account' }).click()

    const alert = page.getByRole('alert').filter({ hasText: 'An account with this email already exists' })
    await expect(alert).toHaveText(/An account with this email already exists\. Please log in instead\./)
    await expect(alert.getByRole('link', { name: 'Log in instead' })).toHaveAttribute('href', '/login')
    await expectAccessible(page, axe)
  })

  test('register form: the first validation problem is a toast and sits under its field', async ({
    page,
  }) => {
    await openForm(page, '/register')
    await page.getByLabel('Name').fill('Al')
    await page.getByLabel('Email').fill(uniqueEmail('mismatch'))
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByLabel('Confirm password').fill(`${PASSWORD}x`)
    await page.getByRole('button', { name: 'Create account' }).click()
    await expect(toast(page, 'error', "Passwords don't match")).toBeVisible()
    await expect(page.getByLabel('Confirm password')).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByLabel('Confirm password')).toHaveAccessibleDescription("Passwords don't match")
    await screenshotScreen(page, 'auth-register-invalid-en-1280')
  })
})

test.describe('login', () => {
  test('validation: email required, then a valid email, then the password', async ({ page }) => {
    await openForm(page, '/login')
    await page.getByRole('button', { name: 'Continue with password' }).click()
    await expect(toast(page, 'error', 'Email is required')).toBeVisible()
    await page.getByLabel('Email').fill('not-an-email')
    await page.getByRole('button', { name: 'Continue with password' }).click()
    await expect(toast(page, 'error', 'Please enter a valid email address')).toBeVisible()
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Please enter a valid email address')

    await page.getByLabel('Email').fill(uniqueEmail('validation'))
    await page.getByRole('button', { name: 'Continue with password' }).click()
    await expect(page.getByLabel('Password', { exact: true })).toBeFocused()
    await page.getByRole('button', { name: 'Log in', exact: true }).click()
    await expect(toast(page, 'error', 'Please fill in all required fields')).toBeVisible()

    await page.getByRole('button', { name: 'Cancel' }).click()
    await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0)
    await expect(page.getByLabel('Email')).toBeFocused()
  })

  test('a wrong password shows an error toast and keeps the session closed', async ({ page, request }) => {
    const user = await createVerifiedUser(request, 'wrongpw')
    await openForm(page, '/login')
    await logIn(page, user.email, 'definitely-not-it')
    await expect(toast(page, 'error', 'Invalid email or password')).toBeVisible()
    await expect(page).toHaveURL(/\/login$/)
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull()
    await screenshotScreen(page, 'auth-login-wrong-password-en-1280')
  })

  test('an unverified account gets the warning toast for 8 s and a way to a new link', async ({
    page,
    request,
    axe,
  }) => {
    const user = await createUnverifiedUser(request, 'unverified')
    await page.clock.install()
    await openForm(page, '/login')

    const warning = toast(
      page,
      'warning',
      'Your email is not verified. Please verify your email before logging in.',
    )
    // Longer than the usual 6 s of a warning: 8 s (TIMINGS.unverifiedLoginToastMs) on the page's clock,
    // then the toast's closing animation.
    await expectShownFor(page, warning, 8_000, () => logIn(page, user.email, user.password), {
      exitMs: 500,
      whileShown: async () => {
        expect(await page.evaluate(() => localStorage.getItem('verification_email'))).toBe(user.email)
        await expect(page.getByRole('link', { name: 'Resend verification email' })).toBeVisible()
        await screenshotScreen(page, 'auth-login-unverified-en-1280')
      },
    })
    // axe waits on the page's timers: it runs with the clock going again.
    await expectAccessible(page, axe)

    await page.getByRole('link', { name: 'Resend verification email' }).click()
    await expect(page.getByLabel('Email')).toHaveValue(user.email)
  })

  test('a protected page sends the visitor to login and back there afterwards', async ({ page, request }) => {
    const user = await createVerifiedUser(request, 'returnurl', 'Return Tester')
    await page.goto('/dashboard?from=e2e')
    await page.waitForURL(/\/login\?returnUrl=/)
    await logIn(page, user.email, user.password)
    await page.waitForURL('**/dashboard?from=e2e')
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome back, Return Tester' })).toBeVisible()

    // Signed in, the login page has nothing to offer.
    await page.goto('/login')
    await page.waitForURL('**/dashboard')
  })

  test('remember me asks the server for a long session', async ({ page, request }) => {
    const user = await createVerifiedUser(request, 'remember')
    await openForm(page, '/login')
    await page.getByLabel('Email').fill(user.email)
    await page.getByRole('button', { name: 'Continue with password' }).click()
    await page.getByLabel('Password', { exact: true }).fill(user.password)
    await page.getByText('Remember me').click()
    const sent = page.waitForRequest('**/api/users/login')
    await page.getByRole('button', { name: 'Log in', exact: true }).click()
    expect((await sent).postDataJSON()).toMatchObject({ email: user.email, rememberMe: true })
    await page.waitForURL('**/dashboard')
    const exp = await page.evaluate(() => {
      const payload = (localStorage.getItem('token') ?? '').split('.')[1] ?? ''
      return (JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { exp: number }).exp
    })
    expect(exp - Date.now() / 1000).toBeGreaterThan(7 * 24 * 3600)
  })

  test('passkey mode: needs an email, and says when no passkey is registered', async ({ page, axe }) => {
    await openForm(page, '/login')
    await page.getByRole('button', { name: 'Use a passkey' }).click()
    await expect(toast(page, 'error', 'Email is required to use passkey authentication.')).toBeVisible()

    await page.getByLabel('Email').fill(uniqueEmail('passkey'))
    await page.getByRole('button', { name: 'Use a passkey' }).click()
    const passkeyButton = page.getByRole('button', { name: 'Log in with passkey' })
    await expect(passkeyButton).toBeFocused()
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'auth-login-passkey-en-1280')
    // An address without an account gets the same answer as an account without passkeys.
    await passkeyButton.click()
    await expect(
      toast(page, 'error', "You haven't registered any passkeys yet. Please log in with your password"),
    ).toBeVisible()
    await page.getByRole('button', { name: 'Cancel' }).click()
    await expect(page.getByRole('button', { name: 'Continue with password' })).toBeVisible()
  })
})

test.describe('password reset', () => {
  test('forgot → email → reset (mismatch first) → back to login → log in with the new password', async ({
    page,
    request,
    axe,
  }) => {
    const user = await createVerifiedUser(request, 'reset', 'Reset Tester')
    const newPassword = 'e2e-Brand-new-pass-9'

    await openForm(page, '/forgot-password')
    await page.getByLabel('Email').fill(user.email)
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Check Your Email' })).toBeVisible()
    await expect(
      page.getByText('If this email exists in our system, you will receive a password reset link shortly.'),
    ).toBeVisible()
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused()
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'auth-forgot-sent-en-1280')

    const message = await waitForEmail(user.email, { subject: /reset/i, timeoutMs: 30_000 })
    await page.goto(extractLink(message, '/reset-password?token='))
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible()
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'auth-reset-form-en-1280')

    await page.getByLabel('New password', { exact: true }).fill(newPassword)
    await page.getByLabel('Confirm new password').fill(`${newPassword}-typo`)
    await page.getByRole('button', { name: 'Reset password' }).click()
    await expect(toast(page, 'error', 'Passwords do not match')).toBeVisible()
    await expect(page.getByLabel('Confirm new password')).toHaveAccessibleDescription(
      'Passwords do not match',
    )
    await screenshotScreen(page, 'auth-reset-mismatch-en-1280')

    await page.getByLabel('Confirm new password').fill(newPassword)
    await page.getByRole('button', { name: 'Reset password' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Password Reset Successful' })).toBeVisible()
    await expect(page.getByRole('link', { name: 'Go to Login' })).toBeVisible()
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'auth-reset-success-en-1280')

    await page.waitForURL('**/login?message=password-reset-success', { timeout: 6_000 })
    await expect(page.getByText('Password updated')).toBeVisible()
    await screenshotScreen(page, 'auth-login-after-reset-en-1280')
    await logIn(page, user.email, user.password)
    await expect(toast(page, 'error', 'Invalid email or password')).toBeVisible()
    await page.getByLabel('Password', { exact: true }).fill(newPassword)
    await page.getByRole('button', { name: 'Log in', exact: true }).click()
    await page.waitForURL('**/dashboard')
  })

  test('an unknown or missing reset token is an invalid link', async ({ page }) => {
    await page.goto('/reset-password?token=not-a-real-token')
    await expect(
      page.getByText('Verifying reset token...').or(page.getByText('Invalid Reset Link')),
    ).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name: 'Invalid Reset Link' })).toBeVisible()
    await expect(
      page.getByText(
        'This password reset link is invalid or has expired. Please request a new password reset.',
      ),
    ).toBeVisible()
    await expect(page.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    )
    await expect(page.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login')

    await page.goto('/reset-password')
    await expect(page.getByRole('heading', { level: 1, name: 'Invalid Reset Link' })).toBeVisible()
  })

  test('forgot password: "Try a different email" clears the form', async ({ page }) => {
    await openForm(page, '/forgot-password')
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await expect(toast(page, 'error', 'Email is required')).toBeVisible()
    await page.getByLabel('Email').fill(uniqueEmail('nobody'))
    await page.getByRole('button', { name: 'Send reset link' }).click()
    await page.getByRole('button', { name: 'Try a different email' }).click()
    await expect(page.getByLabel('Email')).toHaveValue('')
    await expect(page.getByLabel('Email')).toBeFocused()
  })
})

test.describe('email verification', () => {
  test('a bad verification token shows the error with ways on', async ({ page, axe }) => {
    await page.goto('/verify?token=deadbeef')
    await expect(page.getByRole('heading', { level: 1, name: "We couldn't verify your email" })).toBeVisible()
    await expect(
      page.getByText('Invalid or expired verification token. Please request a new verification email.'),
    ).toBeVisible()
    const main = page.getByRole('main')
    await expect(main.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/resend-verification',
    )
    await expect(main.getByRole('link', { name: 'Log in', exact: true })).toHaveAttribute('href', '/login')
    await expectAccessible(page, axe)
  })

  test('resend: the 4th request within 15 min is refused with a countdown on a disabled button', async ({
    page,
    request,
    axe,
  }) => {
    const user = await createUnverifiedUser(request, 'resend')
    await openForm(page, '/resend-verification')
    await page.getByLabel('Email').fill(user.email)
    await page.getByRole('button', { name: 'Send verification email' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Verification email sent!' })).toBeVisible()
    await expect(page.getByText('The link expires in 1 hour.')).toBeVisible()
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'auth-resend-sent-en-1280')

    // Two more through the API use up the three allowed per address.
    for (let i = 0; i < 2; i += 1) {
      const response = await request.post('/api/users/resend-verification', { data: { email: user.email } })
      expect(response.status()).toBe(200)
    }

    await openForm(page, '/resend-verification')
    await page.getByLabel('Email').fill(user.email)
    await page.getByRole('button', { name: 'Send verification email' }).click()
    const waitButton = page.getByRole('button', { name: 'Please wait before retrying' })
    await expect(waitButton).toBeDisabled()
    await expect(
      page.getByText('Too many verification requests. Please wait before trying again.'),
    ).toBeVisible()
    const timer = page.getByRole('timer')
    await expect(timer).toHaveText(/You can try again in (0\d|1[0-5]):[0-5]\d\./)
    const first = await timer.textContent()
    await expect(timer).not.toHaveText(first ?? '', { timeout: 3_000 })
    await expectAccessible(page, axe)
    await screenshotScreen(page, 'auth-resend-429-en-1280')
    await page.setViewportSize({ width: 390, height: 844 })
    await screenshotScreen(page, 'auth-resend-429-en-390')
  })
})

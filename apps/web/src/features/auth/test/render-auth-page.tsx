import type { Language } from '@circles/shared'
import { renderPages } from '@/test/render-pages'
import { ForgotPasswordPage } from '../routes/forgot-password-page'
import { LoginPage } from '../routes/login-page'
import { RegisterPage } from '../routes/register-page'
import { ResendVerificationPage } from '../routes/resend-verification-page'
import { ResetPasswordPage } from '../routes/reset-password-page'
import { VerifyPage } from '../routes/verify-page'

export { type ApiHandler, json, mockApi, sentBodies } from '@/test/mock-api'

const pages = {
  '/login': LoginPage,
  '/register': RegisterPage,
  '/forgot-password': ForgotPasswordPage,
  '/reset-password': ResetPasswordPage,
  '/verify': VerifyPage,
  '/resend-verification': ResendVerificationPage,
}

export const renderAuthPage = (path: string, language: Language = 'en') =>
  renderPages(pages, path, { language, namespaces: ['auth'] })

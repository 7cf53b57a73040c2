import { zodResolver } from '@hookform/resolvers/zod'
import { ZLoginEmailForm, ZLoginPasswordForm } from '@circles/shared'
import type { Resolver } from 'react-hook-form'

/** Spec 000 §4: undecided until the user picks a way to sign in; cancel goes back to undecided. */
export type LoginMode = 'none' | 'password' | 'passkey'

export interface LoginValues {
  email: string
  password: string
  rememberMe: boolean
}

export interface LoginContext {
  mode: LoginMode
}

/** The order of the fields on screen, for "the first validation error" (spec 000 §5). */
export const LOGIN_FIELD_ORDER = ['email', 'password'] as const

const emailStep = zodResolver(ZLoginEmailForm)
const passwordStep = zodResolver(ZLoginPasswordForm)

/** Undecided (and passkey), only the email is checked; in password mode, email and password. */
export const loginResolver: Resolver<LoginValues, LoginContext> = (values, context, options) =>
  (context?.mode === 'password'
    ? passwordStep(values, context, options as never)
    : emailStep(values, context, options as never)) as ReturnType<Resolver<LoginValues>>

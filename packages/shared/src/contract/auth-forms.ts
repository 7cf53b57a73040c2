import { z } from 'zod/mini'
import { LIMITS } from '../limits'
import { MESSAGES } from '../messages'
import { isPlainText, requiredString, zEmail } from './common'

/**
 * Client-side form schemas of the sign-in screens (spec 000 §5). They never travel: the requests they
 * become are checked again by the server with ZLoginRequest, ZEmailRequest and ZResetPasswordRequest.
 * Each issue carries the path of the field it belongs to, so a form can show it under that field.
 */

/** Login, first step: the email, before the user picks password or passkey. */
export const ZLoginEmailForm = z.pipe(
  z.object({ email: requiredString(MESSAGES.emailRequired) }),
  z.object({ email: zEmail() }),
)
export type TLoginEmailForm = z.input<typeof ZLoginEmailForm>

/** Login with a password. No length rule: an old password is whatever it is; the server decides. */
export const ZLoginPasswordForm = z.pipe(
  z.object({ email: requiredString(), password: requiredString(), rememberMe: z.boolean() }),
  z.object({ email: zEmail(), password: z.string(), rememberMe: z.boolean() }),
)
export type TLoginPasswordForm = z.input<typeof ZLoginPasswordForm>

/**
 * The reset form without its token (the token comes from the link, not the user), checked in the spec's
 * order: both fields, length, characters, match. Only the first failure is reported.
 */
export const ZResetPasswordForm = z.object({ newPassword: z.string(), confirmPassword: z.string() }).check(
  z.superRefine((v, ctx) => {
    if (!v.newPassword || !v.confirmPassword) {
      ctx.addIssue({
        code: 'custom',
        message: MESSAGES.resetBothRequired,
        path: [v.newPassword ? 'confirmPassword' : 'newPassword'],
      })
    } else if (v.newPassword.length < LIMITS.passwordMin) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.resetPasswordMin, path: ['newPassword'] })
    } else if (!isPlainText(v.newPassword)) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.invalidCharacters, path: ['newPassword'] })
    } else if (v.newPassword !== v.confirmPassword) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.resetPasswordsDoNotMatch, path: ['confirmPassword'] })
    }
  }),
)
export type TResetPasswordForm = z.input<typeof ZResetPasswordForm>

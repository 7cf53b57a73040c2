import { z } from 'zod/mini'
import { LIMITS } from '../limits'
import { MESSAGES } from '../messages'
import { isPlainText } from './common'

/** The longest password we hash, as for a reset (ZResetPasswordRequest). */
const PASSWORD_MAX = 256

type Issue = { message: string; path: 'currentPassword' | 'newPassword' | 'confirmPassword' }

const filled = (x: unknown): x is string => typeof x === 'string' && x.length > 0

/**
 * Change password (issue 24, docs/decisions/0039): the current password first, then the new one by the
 * reset rules in the spec's order (both fields, length, characters, match), then that it differs from
 * the current one. Only the first failure is reported, with the field it belongs to.
 */
function firstIssue(v: {
  currentPassword?: unknown
  newPassword?: unknown
  confirmPassword?: unknown
}): Issue | undefined {
  if (!filled(v.currentPassword) || v.currentPassword.length > PASSWORD_MAX)
    return { message: MESSAGES.currentPasswordRequired, path: 'currentPassword' }
  if (!filled(v.newPassword) || !filled(v.confirmPassword))
    return {
      message: MESSAGES.resetBothRequired,
      path: filled(v.newPassword) ? 'confirmPassword' : 'newPassword',
    }
  if (v.newPassword.length < LIMITS.passwordMin || v.newPassword.length > PASSWORD_MAX)
    return { message: MESSAGES.resetPasswordMin, path: 'newPassword' }
  if (!isPlainText(v.newPassword)) return { message: MESSAGES.invalidCharacters, path: 'newPassword' }
  if (v.newPassword !== v.confirmPassword)
    return { message: MESSAGES.resetPasswordsDoNotMatch, path: 'confirmPassword' }
  if (v.newPassword === v.currentPassword)
    return { message: MESSAGES.passwordSameAsCurrent, path: 'newPassword' }
  return undefined
}

/** The web form: three strings as typed. */
export const ZChangePasswordForm = z
  .object({ currentPassword: z.string(), newPassword: z.string(), confirmPassword: z.string() })
  .check(
    z.superRefine((v, ctx) => {
      const issue = firstIssue(v)
      if (issue) ctx.addIssue({ code: 'custom', message: issue.message, path: [issue.path] })
    }),
  )
export type TChangePasswordForm = z.input<typeof ZChangePasswordForm>

/** PUT /api/users/me/password: the same rules, on whatever arrived. */
export const ZChangePasswordRequest = z.pipe(
  z
    .object({
      currentPassword: z.optional(z.unknown()),
      newPassword: z.optional(z.unknown()),
      confirmPassword: z.optional(z.unknown()),
    })
    .check(
      z.superRefine((v, ctx) => {
        const issue = firstIssue(v)
        if (issue) ctx.addIssue({ code: 'custom', message: issue.message, path: [issue.path] })
      }),
    ),
  z.transform((v) => ({
    currentPassword: v.currentPassword as string,
    newPassword: v.newPassword as string,
  })),
)
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>

/** The answer: a new token for this session (same expiry); every other session has ended. */
export const ZChangePasswordResponse = z.object({ message: z.string(), token: z.string() })
export type TChangePasswordResponse = z.infer<typeof ZChangePasswordResponse>

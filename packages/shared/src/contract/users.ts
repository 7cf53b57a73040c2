import { z } from 'zod'
import { LIMITS } from '../limits'
import { MESSAGES } from '../messages'
import { ZPushPreferences } from './push'
import { ZLanguage, isPlainText, requiredString, zEmail, zText } from './common'

export const ZUser = z
  .object({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    language: ZLanguage,
    createdAt: z.iso.datetime(),
    /** The avatar picture (issue 24, docs/decisions/0037): a new URL on every upload; null = none. */
    avatarUrl: z.string().nullable().optional(),
    /** Issue 26: the IANA time zone the browser last reported (null = not yet; reminders use UTC). */
    timeZone: z.string().nullable().optional(),
  })
  .meta({ id: 'User' })
export type TUser = z.infer<typeof ZUser>

/**
 * Where an avatar is served from: `<prefix><32 hex>.webp`, for the person and the members of a circle
 * they share; fetched with the bearer token.
 */
export const AVATAR_PATH_PREFIX = '/api/users/avatars/'
export const ZAvatarFileParams = z.object({
  file: z.string().regex(/^[0-9a-f]{32}\.webp$/, { error: MESSAGES.notFound }),
})
/** PUT and DELETE /users/me/avatar: the user with the new avatar (or none). */
export const ZAvatarResponse = z.object({ user: ZUser, message: z.string() })
export type TAvatarResponse = z.infer<typeof ZAvatarResponse>

export const ZRegisterRequest = z
  .object({
    name: requiredString(),
    email: requiredString(),
    password: requiredString(),
    invitationToken: z.string().optional(),
    language: ZLanguage.optional(),
  })
  .pipe(
    z.object({
      name: zText().min(LIMITS.nameMin, MESSAGES.nameMin).max(100),
      email: zEmail(),
      password: zText({ trim: false }).min(LIMITS.passwordMin, MESSAGES.passwordMin).max(256),
      invitationToken: zText().max(256).optional(),
      language: ZLanguage.optional(),
    }),
  )
export type TRegisterRequest = z.infer<typeof ZRegisterRequest>

/** The register form adds a confirmation the server never sees. */
export const ZRegisterForm = z
  .object({
    name: requiredString(),
    email: requiredString(),
    password: requiredString(),
    confirmPassword: requiredString(),
  })
  .pipe(
    z
      .object({
        name: zText().min(LIMITS.nameMin, MESSAGES.nameMin),
        email: zEmail(),
        password: zText({ trim: false }).min(LIMITS.passwordMin, MESSAGES.passwordMin),
        confirmPassword: z.string(),
      })
      .refine((v) => v.password === v.confirmPassword, {
        message: MESSAGES.passwordsDontMatch,
        path: ['confirmPassword'],
      }),
  )

export const ZRegisterResponse = z.object({
  message: z.string(),
  requiresVerification: z.boolean(),
  token: z.string().optional(),
  user: ZUser.optional(),
})
export type TRegisterResponse = z.infer<typeof ZRegisterResponse>

export const ZLoginRequest = z
  .object({
    email: requiredString(),
    password: requiredString(),
    rememberMe: z.boolean().optional(),
  })
  .pipe(
    z.object({
      email: zEmail(),
      password: z.string().max(256, MESSAGES.invalidCredentials),
      rememberMe: z.boolean().optional(),
    }),
  )
export type TLoginRequest = z.infer<typeof ZLoginRequest>

export const ZLoginResponse = z.object({ token: z.string(), user: ZUser, message: z.string().optional() })
export type TLoginResponse = z.infer<typeof ZLoginResponse>

export const ZUserIdParams = z.object({ id: z.uuid({ error: MESSAGES.invalidUserId }) })

export const ZStatusResponse = z.object({ id: z.uuid(), emailVerified: z.boolean() })
export type TStatusResponse = z.infer<typeof ZStatusResponse>

export const ZUpdateMeRequest = z.object({ name: requiredString(), language: ZLanguage.optional() }).pipe(
  z.object({
    name: zText().min(LIMITS.nameMin, MESSAGES.nameMin).max(100),
    language: ZLanguage.optional(),
  }),
)
export type TUpdateMeRequest = z.infer<typeof ZUpdateMeRequest>

export const ZUserResponse = z.object({ user: ZUser })

export const ZEmailRequest = z
  .object({ email: requiredString(MESSAGES.emailRequired) })
  .pipe(z.object({ email: zEmail() }))
export type TEmailRequest = z.infer<typeof ZEmailRequest>

export const ZTokenParams = z.object({ token: z.string().min(1).max(256) })

export const ZVerifyResetTokenResponse = z.object({ valid: z.boolean() })

/**
 * Checked in the spec's order: both present, length, (issue 22: characters), match, token. Only the first
 * failure is reported.
 */
export const ZResetPasswordRequest = z
  .object({
    token: z.unknown().optional(),
    newPassword: z.unknown().optional(),
    confirmPassword: z.unknown().optional(),
  })
  .superRefine((v, ctx) => {
    const filled = (x: unknown): x is string => typeof x === 'string' && x.length > 0
    if (!filled(v.newPassword) || !filled(v.confirmPassword)) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.resetBothRequired })
    } else if (v.newPassword.length < LIMITS.passwordMin || v.newPassword.length > 256) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.resetPasswordMin, path: ['newPassword'] })
    } else if (!isPlainText(v.newPassword)) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.invalidCharacters, path: ['newPassword'] })
    } else if (v.newPassword !== v.confirmPassword) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.resetPasswordsDoNotMatch, path: ['confirmPassword'] })
    } else if (!filled(v.token)) {
      ctx.addIssue({ code: 'custom', message: MESSAGES.resetTokenInvalid, path: ['token'] })
    }
  })
  .transform((v) => ({ token: v.token as string, newPassword: v.newPassword as string }))
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>

/**
 * `email`: the verified account's address, so the page can prefill the login (issue 23). Only the holder
 * of the emailed link gets it, and they know it already.
 */
export const ZVerifyEmailResponse = z.object({
  verified: z.boolean(),
  message: z.string(),
  email: z.string().optional(),
})
export type TVerifyEmailResponse = z.infer<typeof ZVerifyEmailResponse>

/** Which email notices the user wants (issue 13); every kind is on until switched off. */
export const ZNoticePreferences = z
  .object({
    /** A member asks to hand you something. */
    handoverRequests: z.boolean(),
    /** Your request was accepted or rejected. */
    handoverAnswers: z.boolean(),
    /** You were invited to a circle. */
    invitations: z.boolean(),
    /** Issue 26: a borrowed item is due soon, due today or overdue (to the lender: their item is overdue). */
    loanReminders: z.boolean(),
    /** Issue 26: someone asks to borrow your item, or your ask was answered or is next in line. */
    borrowRequests: z.boolean(),
    /** Issue 26: a loan was accepted, returned, extended or its date changed. */
    loanChanges: z.boolean(),
    /** Issue 27: the push switches, on the devices that turned push on (docs/decisions/0053). */
    push: ZPushPreferences,
  })
  .meta({ id: 'NoticePreferences' })
export type TNoticePreferences = z.infer<typeof ZNoticePreferences>
/**
 * PUT /api/users/me/notifications: the three kinds before issue 26 are required as they were, so an
 * older client's three-field body still works; the lending kinds are kept as they are when left out.
 */
export const ZNoticePreferencesUpdate = ZNoticePreferences.extend({
  loanReminders: z.boolean().optional(),
  borrowRequests: z.boolean().optional(),
  loanChanges: z.boolean().optional(),
  /** Issue 27: any of the push switches; those left out stay as they are. */
  push: ZPushPreferences.partial().optional(),
})
export type TNoticePreferencesUpdate = z.infer<typeof ZNoticePreferencesUpdate>

/**
 * PUT /api/users/me/time-zone (issue 26): the browser's IANA time zone, for "on the day" reminders.
 * Checked with Intl on the server (an unknown zone is refused).
 */
export const ZTimeZoneRequest = z.object({ timeZone: z.string().min(1).max(64) })
export const ZTimeZoneResponse = z.object({ timeZone: z.string().nullable() })
export const ZNoticePreferencesResponse = z.object({ notices: ZNoticePreferences })

/** POST /api/users/unsubscribe: the token from a notice's link (body), or from List-Unsubscribe (query). */
export const ZUnsubscribeRequest = z.object({ token: z.string().max(300).optional() }).nullish()
export const ZUnsubscribeQuery = z.object({ token: z.string().max(300).optional() })

import { z } from 'zod/mini'
import { LIMITS } from '../limits'
import { MESSAGES } from '../messages'
import { ZPushPreferences } from './push'
import { ZLanguage, isPlainText, named, requiredString, zEmail, zText } from './common'

export const ZUser = named(
  z.object({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    emailVerified: z.boolean(),
    language: ZLanguage,
    createdAt: z.iso.datetime(),
    /** The avatar picture (issue 24, docs/decisions/0037): a new URL on every upload; null = none. */
    avatarUrl: z.optional(z.nullable(z.string())),
    /** Issue 26: the IANA time zone the browser last reported (null = not yet; reminders use UTC). */
    timeZone: z.optional(z.nullable(z.string())),
  }),
  'User',
)
export type TUser = z.infer<typeof ZUser>

/**
 * Where an avatar is served from: `<prefix><32 hex>.webp`, for the person and the members of a circle
 * they share; fetched with the bearer token.
 */
export const AVATAR_PATH_PREFIX = '/api/users/avatars/'
export const ZAvatarFileParams = z.object({
  file: z.string().check(z.regex(/^[0-9a-f]{32}\.webp$/, { error: MESSAGES.notFound })),
})
/** PUT and DELETE /users/me/avatar: the user with the new avatar (or none). */
export const ZAvatarResponse = z.object({ user: ZUser, message: z.string() })
export type TAvatarResponse = z.infer<typeof ZAvatarResponse>

export const ZRegisterRequest = z.pipe(
  z.object({
    name: requiredString(),
    email: requiredString(),
    password: requiredString(),
    invitationToken: z.optional(z.string()),
    language: z.optional(ZLanguage),
  }),
  z.object({
    name: zText().check(z.minLength(LIMITS.nameMin, MESSAGES.nameMin), z.maxLength(100)),
    email: zEmail(),
    password: zText({ trim: false }).check(
      z.minLength(LIMITS.passwordMin, MESSAGES.passwordMin),
      z.maxLength(256),
    ),
    invitationToken: z.optional(zText().check(z.maxLength(256))),
    language: z.optional(ZLanguage),
  }),
)
export type TRegisterRequest = z.infer<typeof ZRegisterRequest>

/** The register form adds a confirmation the server never sees. */
export const ZRegisterForm = z.pipe(
  z.object({
    name: requiredString(),
    email: requiredString(),
    password: requiredString(),
    confirmPassword: requiredString(),
  }),
  z
    .object({
      name: zText().check(z.minLength(LIMITS.nameMin, MESSAGES.nameMin)),
      email: zEmail(),
      password: zText({ trim: false }).check(z.minLength(LIMITS.passwordMin, MESSAGES.passwordMin)),
      confirmPassword: z.string(),
    })
    .check(
      z.refine((v) => v.password === v.confirmPassword, {
        message: MESSAGES.passwordsDontMatch,
        path: ['confirmPassword'],
      }),
    ),
)

export const ZRegisterResponse = z.object({
  message: z.string(),
  requiresVerification: z.boolean(),
  token: z.optional(z.string()),
  user: z.optional(ZUser),
})
export type TRegisterResponse = z.infer<typeof ZRegisterResponse>

export const ZLoginRequest = z.pipe(
  z.object({
    email: requiredString(),
    password: requiredString(),
    rememberMe: z.optional(z.boolean()),
  }),
  z.object({
    email: zEmail(),
    password: z.string().check(z.maxLength(256, MESSAGES.invalidCredentials)),
    rememberMe: z.optional(z.boolean()),
  }),
)
export type TLoginRequest = z.infer<typeof ZLoginRequest>

export const ZLoginResponse = z.object({ token: z.string(), user: ZUser, message: z.optional(z.string()) })
export type TLoginResponse = z.infer<typeof ZLoginResponse>

export const ZUserIdParams = z.object({ id: z.uuid({ error: MESSAGES.invalidUserId }) })

export const ZStatusResponse = z.object({ id: z.uuid(), emailVerified: z.boolean() })
export type TStatusResponse = z.infer<typeof ZStatusResponse>

export const ZUpdateMeRequest = z.pipe(
  z.object({ name: requiredString(), language: z.optional(ZLanguage) }),
  z.object({
    name: zText().check(z.minLength(LIMITS.nameMin, MESSAGES.nameMin), z.maxLength(100)),
    language: z.optional(ZLanguage),
  }),
)
export type TUpdateMeRequest = z.infer<typeof ZUpdateMeRequest>

export const ZUserResponse = z.object({ user: ZUser })

export const ZEmailRequest = z.pipe(
  z.object({ email: requiredString(MESSAGES.emailRequired) }),
  z.object({ email: zEmail() }),
)
export type TEmailRequest = z.infer<typeof ZEmailRequest>

export const ZTokenParams = z.object({ token: z.string().check(z.minLength(1), z.maxLength(256)) })

export const ZVerifyResetTokenResponse = z.object({ valid: z.boolean() })

/**
 * Checked in the spec's order: both present, length, (issue 22: characters), match, token. Only the first
 * failure is reported.
 */
export const ZResetPasswordRequest = z.pipe(
  z
    .object({
      token: z.optional(z.unknown()),
      newPassword: z.optional(z.unknown()),
      confirmPassword: z.optional(z.unknown()),
    })
    .check(
      z.superRefine((v, ctx) => {
        const filled = (x: unknown): x is string => typeof x === 'string' && x.length > 0
        if (!filled(v.newPassword) || !filled(v.confirmPassword)) {
          ctx.addIssue({ code: 'custom', message: MESSAGES.resetBothRequired })
        } else if (v.newPassword.length < LIMITS.passwordMin || v.newPassword.length > 256) {
          ctx.addIssue({ code: 'custom', message: MESSAGES.resetPasswordMin, path: ['newPassword'] })
        } else if (!isPlainText(v.newPassword)) {
          ctx.addIssue({ code: 'custom', message: MESSAGES.invalidCharacters, path: ['newPassword'] })
        } else if (v.newPassword !== v.confirmPassword) {
          ctx.addIssue({
            code: 'custom',
            message: MESSAGES.resetPasswordsDoNotMatch,
            path: ['confirmPassword'],
          })
        } else if (!filled(v.token)) {
          ctx.addIssue({ code: 'custom', message: MESSAGES.resetTokenInvalid, path: ['token'] })
        }
      }),
    ),
  z.transform((v) => ({ token: v.token as string, newPassword: v.newPassword as string })),
)
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>

/**
 * `email`: the verified account's address, so the page can prefill the login (issue 23). Only the holder
 * of the emailed link gets it, and they know it already.
 */
export const ZVerifyEmailResponse = z.object({
  verified: z.boolean(),
  message: z.string(),
  email: z.optional(z.string()),
})
export type TVerifyEmailResponse = z.infer<typeof ZVerifyEmailResponse>

/** Which email notices the user wants (issue 13); every kind is on until switched off. */
export const ZNoticePreferences = named(
  z.object({
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
  }),
  'NoticePreferences',
)
export type TNoticePreferences = z.infer<typeof ZNoticePreferences>
/**
 * PUT /api/users/me/notifications: the three kinds before issue 26 are required as they were, so an
 * older client's three-field body still works; the lending kinds are kept as they are when left out.
 */
export const ZNoticePreferencesUpdate = z.extend(ZNoticePreferences, {
  loanReminders: z.optional(z.boolean()),
  borrowRequests: z.optional(z.boolean()),
  loanChanges: z.optional(z.boolean()),
  /** Issue 27: any of the push switches; those left out stay as they are. */
  push: z.optional(z.partial(ZPushPreferences)),
})
export type TNoticePreferencesUpdate = z.infer<typeof ZNoticePreferencesUpdate>

/**
 * PUT /api/users/me/time-zone (issue 26): the browser's IANA time zone, for "on the day" reminders.
 * Checked with Intl on the server (an unknown zone is refused).
 */
export const ZTimeZoneRequest = z.object({ timeZone: z.string().check(z.minLength(1), z.maxLength(64)) })
export const ZTimeZoneResponse = z.object({ timeZone: z.nullable(z.string()) })
export const ZNoticePreferencesResponse = z.object({ notices: ZNoticePreferences })

/** POST /api/users/unsubscribe: the token from a notice's link (body), or from List-Unsubscribe (query). */
export const ZUnsubscribeRequest = z.nullish(
  z.object({ token: z.optional(z.string().check(z.maxLength(300))) }),
)
export const ZUnsubscribeQuery = z.object({ token: z.optional(z.string().check(z.maxLength(300))) })

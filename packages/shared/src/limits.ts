/** Business constants and limits from the spec (000 §9 and 001 §9). One place, used by web and server. */
export const LIMITS = {
  passwordMin: 8,
  nameMin: 2,
  circleNameMin: 3,
  circleNameMax: 100,
  circleDescriptionMax: 1000,
  contactSubjectMin: 3,
  contactMessageMin: 10,
  invitationTokenMin: 32,
  invitationTokenMax: 64,
  /** Validity of email-verification and password-reset links. */
  emailTokenTtlMs: 60 * 60 * 1000,
  invitationTtlMs: 7 * 24 * 60 * 60 * 1000,
  /** Default wait after a 429 when the server gives no retryAfter. */
  defaultRetryAfterSeconds: 300,
  sessionTtlSeconds: 24 * 60 * 60,
  rememberMeTtlSeconds: 30 * 24 * 60 * 60,
  itemNameMax: 100,
  itemDescriptionMax: 2000,
  maxImageBytes: 5 * 1024 * 1024,
  maxImageSide: 1920,
  /** The longer side of the small rendition the card grids show. */
  thumbnailSide: 480,
  /** The avatar's side: a square centre crop, WebP (docs/decisions/0037). */
  avatarSide: 256,
  /** Requester and receiver comments and the secret message. */
  handoverCommentMax: 1000,
  /** Condition evidence (issue 28): photos per side of a handover, and the note's length. */
  conditionPhotosMax: 4,
  conditionNoteMax: 1000,
  /** Messages of lending: ask to borrow, extension, return, decline reason (issue 26). */
  loanMessageMax: 1000,
  /** Issue 29: witness devices (Ed25519 keys) per account. */
  witnessKeysPerAccount: 10,
  circlePageItems: 6,
  dashboardCircles: 3,
  dashboardActivities: 10,
  headerScrollThresholdPx: 64,
  logoutDelayMs: 100,
  faqEntries: 4,
  cookieConsentDays: 182,
} as const

export const TIMINGS = {
  redirectAfterVerifyMs: 2000,
  redirectAfterInvitationAcceptMs: 2000,
  redirectAfterPasswordResetMs: 3000,
  toast: { success: 5000, info: 5000, warning: 6000, error: 8000, default: 5000 },
  /** The unverified-login warning stays for 8 s (spec 000 §8). */
  unverifiedLoginToastMs: 8000,
  copyNoticeMs: 3000,
  successBannerMs: 5000,
  listCancelBannerMs: 3000,
  passkeySuccessMs: 5000,
} as const

export const SOCKET = {
  path: '/socket.io',
  reconnectAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  timeoutMs: 30_000,
} as const

export const PLANS = {
  personal: { circles: 2, membersPerCircle: 11, items: 10 },
} as const

export const LANGUAGES = ['en', 'de'] as const
export type Language = (typeof LANGUAGES)[number]

/** The supported language a tag names, region ignored ('de-AT' → 'de'); undefined for any other. */
export function supportedLanguage(tag: string | null | undefined): Language | undefined {
  const base = tag?.trim().toLowerCase().split('-')[0]
  return (LANGUAGES as readonly string[]).includes(base ?? '') ? (base as Language) : undefined
}
export const RTL_LANGUAGES = ['ar', 'he', 'fa', 'ur'] as const

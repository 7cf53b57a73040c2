import { z } from 'zod/mini'
import { LANGUAGES } from '../limits'
import { MESSAGES } from '../messages'

/**
 * Forms check in two stages, as the spec orders its messages: first that every field is there
 * ('Please fill in all required fields'), then each field's own rule. `required` is the first stage.
 */
export const requiredString = (message: string = MESSAGES.required) =>
  z.string({ error: message }).check(z.refine((v) => v.trim().length > 0, { message }))

/**
 * The simple "text @ text . text" pattern of the spec; no whitespace, control character (C0, DEL, C1)
 * or lone surrogate anywhere (with the `u` flag a paired surrogate is one character, so `\p{Cs}` only
 * matches a lone one).
 */
export const EMAIL_PATTERN = /^[^\s@\p{Cc}\p{Cs}]+@[^\s@\p{Cc}\p{Cs}]+\.[^\s@\p{Cc}\p{Cs}]+$/u

/**
 * Text a person typed (issue 22): no C0 control character (U+0000 to U+001F) and no DEL (U+007F), and
 * no lone surrogate (half of a UTF-16 pair, which no encoding can store). Multi-line fields (descriptions,
 * comments, the secret message, the contact message) also take tabs and line breaks: LF, and CR only as
 * part of CRLF.
 */
// Matching control characters is the point of these two.
// eslint-disable-next-line no-control-regex
const SINGLE_LINE_FORBIDDEN = /[\u0000-\u001f\u007f]|\p{Cs}/u
// eslint-disable-next-line no-control-regex
const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|\r(?!\n)|\p{Cs}/u

export function isPlainText(value: string, { multiline = false }: { multiline?: boolean } = {}): boolean {
  return !(multiline ? MULTI_LINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN).test(value)
}

/**
 * A string of text a person typed: trimmed (unless `trim: false`, for passwords), then checked with
 * `isPlainText` before any rule chained after it, so that rule's message comes first.
 */
export const zText = ({
  multiline = false,
  trim = true,
  message = MESSAGES.invalidCharacters,
}: { multiline?: boolean; trim?: boolean; message?: string } = {}) =>
  (trim ? z.string().check(z.trim()) : z.string()).check(
    z.refine((v) => isPlainText(v, { multiline }), { message }),
  )

export const zEmail = (message: string = MESSAGES.invalidEmail) =>
  z.pipe(
    z.string().check(z.trim(), z.maxLength(254, message), z.regex(EMAIL_PATTERN, message)),
    z.transform((v: string) => v.toLowerCase()),
  )

/**
 * Names a schema in the OpenAPI document's components (`#/components/schemas/<id>`), as classic zod's
 * `.meta({ id })` did. The contract is written with zod/mini, whose schemas have no `.meta()`: the web
 * parses every answer with it, and mini is about 11 KB (brotli) less on every signed-in screen
 * (issue 27, docs/decisions/0055).
 */
export function named<T extends z.ZodMiniType>(schema: T, id: string): T {
  z.globalRegistry.add(schema as z.ZodMiniType, { id })
  return schema
}

export const ZLanguage = z.enum(LANGUAGES)

export const ZErrorResponse = named(
  z.object({
    message: z.string(),
    code: z.optional(z.string()),
    emailVerified: z.optional(z.boolean()),
    retryAfter: z.optional(z.number().check(z.int())),
    /**
     * The name of `message` in MESSAGES (issue 23): clients translate by it, so a reworded message keeps
     * its translation. Every error answer carries one; `invalidInput` stands for zod's own words.
     */
    key: z.optional(z.string()),
  }),
  'ErrorResponse',
)
export type TErrorResponse = z.infer<typeof ZErrorResponse>

export const ZMessageResponse = z.object({ message: z.string() })
export type TMessageResponse = z.infer<typeof ZMessageResponse>

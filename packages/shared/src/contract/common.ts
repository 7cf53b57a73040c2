import { z } from 'zod'
import { LANGUAGES } from '../limits'
import { MESSAGES } from '../messages'

/**
 * Forms check in two stages, as the spec orders its messages: first that every field is there
 * ('Please fill in all required fields'), then each field's own rule. `required` is the first stage.
 */
export const requiredString = (message: string = MESSAGES.required) =>
  z.string({ error: message }).refine((v) => v.trim().length > 0, { message })

/** The simple "text @ text . text" pattern of the spec; no whitespace anywhere. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const zEmail = (message: string = MESSAGES.invalidEmail) =>
  z
    .string()
    .trim()
    .max(254, message)
    .regex(EMAIL_PATTERN, message)
    .transform((v) => v.toLowerCase())

export const ZLanguage = z.enum(LANGUAGES)

export const ZErrorResponse = z
  .object({
    message: z.string(),
    code: z.string().optional(),
    emailVerified: z.boolean().optional(),
    retryAfter: z.number().int().optional(),
  })
  .meta({ id: 'ErrorResponse' })
export type TErrorResponse = z.infer<typeof ZErrorResponse>

export const ZMessageResponse = z.object({ message: z.string() })
export type TMessageResponse = z.infer<typeof ZMessageResponse>

import { z } from 'zod/mini'
import { LIMITS } from '../limits'
import { MESSAGES } from '../messages'
import { requiredString, zEmail, zText } from './common'

export const CONTACT_SUBJECTS = ['general', 'support', 'feature', 'billing', 'other'] as const

export const ZContactRequest = z.pipe(
  z.object({
    name: requiredString(),
    email: requiredString(),
    subject: requiredString(),
    message: requiredString(),
  }),
  z.object({
    name: zText().check(z.maxLength(100)),
    email: zEmail(),
    subject: zText().check(z.minLength(LIMITS.contactSubjectMin, MESSAGES.subjectRequired), z.maxLength(100)),
    message: zText({ multiline: true }).check(
      z.minLength(LIMITS.contactMessageMin, MESSAGES.messageMin),
      z.maxLength(5000),
    ),
  }),
)
export type TContactRequest = z.infer<typeof ZContactRequest>

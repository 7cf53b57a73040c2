import { z } from 'zod'
import { LIMITS } from '../limits'
import { MESSAGES } from '../messages'
import { requiredString, zEmail, zText } from './common'

export const CONTACT_SUBJECTS = ['general', 'support', 'feature', 'billing', 'other'] as const

export const ZContactRequest = z
  .object({
    name: requiredString(),
    email: requiredString(),
    subject: requiredString(),
    message: requiredString(),
  })
  .pipe(
    z.object({
      name: zText().max(100),
      email: zEmail(),
      subject: zText().min(LIMITS.contactSubjectMin, MESSAGES.subjectRequired).max(100),
      message: zText({ multiline: true }).min(LIMITS.contactMessageMin, MESSAGES.messageMin).max(5000),
    }),
  )
export type TContactRequest = z.infer<typeof ZContactRequest>

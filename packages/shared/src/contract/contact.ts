import { z } from 'zod'
import { LIMITS } from '../limits'
import { MESSAGES } from '../messages'
import { requiredString, zEmail } from './common'

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
      name: z.string().trim().max(100),
      email: zEmail(),
      subject: z.string().trim().min(LIMITS.contactSubjectMin, MESSAGES.subjectRequired).max(100),
      message: z.string().trim().min(LIMITS.contactMessageMin, MESSAGES.messageMin).max(5000),
    }),
  )
export type TContactRequest = z.infer<typeof ZContactRequest>

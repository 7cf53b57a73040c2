import { MESSAGES, type TContactRequest, type TMessageResponse } from '@circles/shared'
import type { AppContext } from '../../context'
import { enqueueEmail } from '../../lib/mailer/outbox'
import { emails } from '../../lib/mailer/templates'
import { insertContactMessage } from './contact.repository'

export function createContactService(ctx: AppContext) {
  /** Stored and emailed to CONTACT_EMAIL in one transaction; a reply goes straight to the sender. */
  async function sendContactMessage(input: TContactRequest, ip: string): Promise<TMessageResponse> {
    await ctx.rateLimits.consume(
      [
        ['contactPerEmail', input.email],
        ['contactPerAddress', ip],
      ],
      MESSAGES.tooManyRequests,
    )
    await ctx.db.transaction(async (tx) => {
      await insertContactMessage(tx, input)
      await enqueueEmail(tx, {
        to: ctx.config.contactEmail,
        replyTo: input.email,
        email: emails.contactMessage(input),
      })
    })
    ctx.nudgeMail()
    // Its subject and text are the sender's words: not for the log.
    ctx.log.info('contact message received')
    return { message: MESSAGES.contactSent }
  }

  return { sendContactMessage }
}

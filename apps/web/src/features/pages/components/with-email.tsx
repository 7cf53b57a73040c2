import { Fragment } from 'react'

export const EMAIL_PLACEHOLDER = '{email}'

/** A text whose `{email}` placeholders become mailto links (the address comes from the runtime config). */
export function WithEmail({ text, email }: { text: string; email: string }) {
  const parts = text.split(EMAIL_PLACEHOLDER)
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? (
            <a
              href={`mailto:${email}`}
              className="font-medium break-words text-accent-text underline decoration-accent/40 underline-offset-4 hover:decoration-accent"
            >
              {email}
            </a>
          ) : null}
          {part}
        </Fragment>
      ))}
    </>
  )
}

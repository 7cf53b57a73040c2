import { MESSAGES } from '@circles/shared'
import type { FieldErrors, FieldValues } from 'react-hook-form'
import { notify } from '@/lib/notify'
import { translateServerError } from '@/lib/server-errors'
import type { AuthKey, AuthT } from './use-auth-translation'

/** Marks an error message set by the page itself as a key of the auth namespace, e.g. "auth:passkey.emailRequired". */
export const AUTH_MESSAGE_PREFIX = 'auth:'
export const authMessage = (key: AuthKey) => `${AUTH_MESSAGE_PREFIX}${key}`

/**
 * The validation toast on screen, if any. A new one replaces it. (Not a fixed sonner id: a toast
 * re-created under the id of one still fading out would be removed along with it.)
 */
let validationToast: string | number | undefined

function showValidationToast(text: string): void {
  if (validationToast !== undefined) notify.dismiss(validationToast)
  validationToast = notify.error(text)
}

/** A validation message in the user's language. Messages of the shared schemas are MESSAGES texts. */
export function translateFormMessage(message: string, t: AuthT): string {
  if (message.startsWith(AUTH_MESSAGE_PREFIX)) return t(message.slice(AUTH_MESSAGE_PREFIX.length) as AuthKey)
  return translateServerError(message)
}

/**
 * The text under one field. "Please fill in all required fields" speaks about the whole form; under a
 * single empty field "This field is required" says the same thing better.
 */
export function fieldErrorText(message: string | undefined, t: AuthT): string | undefined {
  if (!message) return undefined
  if (message === MESSAGES.required) return translateServerError(MESSAGES.fieldRequired)
  return translateFormMessage(message, t)
}

/** The first error in the order the fields appear on screen. */
export function firstErrorMessage<T extends FieldValues>(
  errors: FieldErrors<T>,
  order: readonly (keyof T & string)[],
): string | undefined {
  for (const name of order) {
    const message = errors[name]?.message
    if (typeof message === 'string' && message) return message
  }
  return undefined
}

/**
 * Shows the first validation error as an error toast (spec 000 §5). Pressing submit again replaces the
 * toast instead of stacking copies.
 */
export function toastFirstError<T extends FieldValues>(
  errors: FieldErrors<T>,
  order: readonly (keyof T & string)[],
  t: AuthT,
): void {
  const message = firstErrorMessage(errors, order)
  if (message) showValidationToast(translateFormMessage(message, t))
}

export function toastFormMessage(message: string, t: AuthT): void {
  showValidationToast(translateFormMessage(message, t))
}

/** A valid submit takes the last validation toast away (it would otherwise outlive the problem). */
export function dismissFormToast(): void {
  if (validationToast !== undefined) notify.dismiss(validationToast)
  validationToast = undefined
}

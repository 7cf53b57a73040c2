import type { FieldErrors, FieldValues } from 'react-hook-form'
import {
  fieldErrorText as sharedFieldErrorText,
  firstErrorMessage,
  showValidationToast,
} from '@/lib/form-errors'
import { translateServerError } from '@/lib/server-errors'
import type { AuthKey, AuthT } from './use-auth-translation'

/** Marks an error message set by the page itself as a key of the auth namespace, e.g. "auth:passkey.emailRequired". */
export const AUTH_MESSAGE_PREFIX = 'auth:'
export const authMessage = (key: AuthKey) => `${AUTH_MESSAGE_PREFIX}${key}`

/** A validation message in the user's language. Messages of the shared schemas are MESSAGES texts. */
export function translateFormMessage(message: string, t: AuthT): string {
  if (message.startsWith(AUTH_MESSAGE_PREFIX)) return t(message.slice(AUTH_MESSAGE_PREFIX.length) as AuthKey)
  return translateServerError(message)
}

export function fieldErrorText(message: string | undefined, t: AuthT): string | undefined {
  return sharedFieldErrorText(message, (m) => translateFormMessage(m, t))
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

export { dismissValidationToast } from '@/lib/form-errors'

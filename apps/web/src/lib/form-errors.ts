import { MESSAGES } from '@circles/shared'
import type { FieldErrors, FieldValues } from 'react-hook-form'
import { notify } from '@/lib/notify'
import { translateServerError } from '@/lib/server-errors'

/**
 * The validation toast on screen, if any (spec 000 §5: the first validation error shows as an error
 * toast). A new one replaces it instead of stacking copies. (Not a fixed sonner id: a toast re-created
 * under the id of one still fading out would be removed along with it.)
 */
let validationToast: string | number | undefined

/** Shows an already translated validation message as the one validation toast. */
export function showValidationToast(text: string): void {
  if (validationToast !== undefined) notify.dismiss(validationToast)
  validationToast = notify.error(text)
}

/** A valid submit takes the last validation toast away (it would otherwise outlive the problem). */
export function dismissValidationToast(): void {
  if (validationToast !== undefined) notify.dismiss(validationToast)
  validationToast = undefined
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
 * The text under one field. "Please fill in all required fields" speaks about the whole form; under a
 * single empty field "This field is required" says the same thing better.
 */
export function fieldErrorText(
  message: string | undefined,
  translate: (message: string) => string = translateServerError,
): string | undefined {
  if (!message) return undefined
  if (message === MESSAGES.required) return translateServerError(MESSAGES.fieldRequired)
  return translate(message)
}

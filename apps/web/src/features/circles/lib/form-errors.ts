import { MESSAGES } from '@circles/shared'
import type { FieldErrors } from 'react-hook-form'
import { notify } from '@/lib/notify'
import { translateServerError } from '@/lib/server-errors'

type CircleFormErrors = FieldErrors<{ name: string; description?: string }>

/** The order the fields appear in: the first error in it is the one the toast shows (spec 001 §5). */
const FIELD_ORDER = ['name', 'description'] as const

/** The validation toast on screen, if any: a second failed submit replaces it instead of stacking. */
let validationToast: string | number | undefined

/** The text under one field; 'Please fill in all required fields' reads better as 'This field is required' there. */
export function fieldErrorText(message: string | undefined): string | undefined {
  if (!message) return undefined
  return translateServerError(message === MESSAGES.required ? MESSAGES.fieldRequired : message)
}

/** The first validation error, translated; the spec's fallback when none carries a message. */
export function firstErrorText(errors: CircleFormErrors): string {
  for (const name of FIELD_ORDER) {
    const message = errors[name]?.message
    if (typeof message === 'string' && message) return translateServerError(message)
  }
  return translateServerError(MESSAGES.required)
}

/** Shows the first validation error as an error toast. */
export function toastFirstError(errors: CircleFormErrors): void {
  if (validationToast !== undefined) notify.dismiss(validationToast)
  validationToast = notify.error(firstErrorText(errors))
}

/** A valid submit takes the last validation toast away. */
export function dismissValidationToast(): void {
  if (validationToast !== undefined) notify.dismiss(validationToast)
  validationToast = undefined
}

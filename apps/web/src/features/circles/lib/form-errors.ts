import { MESSAGES } from '@circles/shared'
import type { FieldErrors } from 'react-hook-form'
import { firstErrorMessage, showValidationToast } from '@/lib/form-errors'
import { translateServerError } from '@/lib/server-errors'

export { dismissValidationToast, fieldErrorText } from '@/lib/form-errors'

type CircleFormErrors = FieldErrors<{ name: string; description?: string }>

/** The order the fields appear in: the first error in it is the one the toast shows (spec 001 §5). */
const FIELD_ORDER = ['name', 'description'] as const

/** The first validation error, translated; the spec's fallback when none carries a message. */
export function firstErrorText(errors: CircleFormErrors): string {
  return translateServerError(firstErrorMessage(errors, FIELD_ORDER) ?? MESSAGES.required)
}

/** Shows the first validation error as an error toast. */
export function toastFirstError(errors: CircleFormErrors): void {
  showValidationToast(firstErrorText(errors))
}

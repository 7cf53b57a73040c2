import { useCallback, type FormHTMLAttributes } from 'react'
import type { FieldValues, UseFormReturn } from 'react-hook-form'
import { OfflineReason } from '@/pwa/offline/offline-notice'

type FieldElement = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement

function isField(element: Element): element is FieldElement {
  return (
    element instanceof HTMLInputElement ||
    element instanceof HTMLSelectElement ||
    element instanceof HTMLTextAreaElement
  )
}

/** What a field shows, in the shape react-hook-form keeps it (a checkbox is a boolean). */
function shownValue(field: FieldElement): string | boolean | undefined {
  if (!(field instanceof HTMLInputElement)) return field.value
  if (field.type === 'checkbox') return field.checked
  if (field.type === 'radio') return field.checked ? field.value : undefined
  if (field.type === 'file' || field.type === 'submit' || field.type === 'button') return undefined
  return field.value
}

/**
 * Copies into the form every value its fields show and the form has not seen: typed or autofilled into
 * a prerendered page before the app took over, or set by a password manager without an input event
 * (docs/decisions/0014). Fields the form did not register are left alone.
 */
export function adoptShownValues<T extends FieldValues>(form: UseFormReturn<T>, element: HTMLFormElement) {
  const values = form.getValues() as Record<string, unknown>
  for (const field of Array.from(element.elements)) {
    if (!isField(field) || !field.name || !(field.name in values)) continue
    const value = shownValue(field)
    if (value === undefined || values[field.name] === value) continue
    form.setValue(field.name as never, value as never, {
      shouldDirty: true,
      // After a first submit the form validates as the user edits: an adopted value counts as an edit.
      shouldValidate: form.formState.isSubmitted,
    })
  }
}

export interface FormProps<T extends FieldValues> extends FormHTMLAttributes<HTMLFormElement> {
  form: UseFormReturn<T>
  /** What the form says while offline, above its fields (default: the app's offline reason). */
  offlineReason?: string
}

/**
 * Every form of the app: validation is ours (noValidate), and what the fields show is what is sent. On
 * hydration, and again just before each submit, the form adopts the values its fields hold, so nothing
 * typed before the script arrived, or filled in silently, is lost or needs retyping.
 */
export function Form<T extends FieldValues>({
  form,
  onSubmitCapture,
  offlineReason,
  children,
  ...props
}: FormProps<T>) {
  const adoptOnMount = useCallback(
    (element: HTMLFormElement | null) => {
      if (element) adoptShownValues(form, element)
    },
    [form],
  )
  const adoptBeforeSubmit: FormProps<T>['onSubmitCapture'] = (event) => {
    adoptShownValues(form, event.currentTarget)
    onSubmitCapture?.(event)
  }
  // Offline, its submit button is disabled (components/ui/button) and the form says why (docs/decisions/0054).
  return (
    <form noValidate {...props} ref={adoptOnMount} onSubmitCapture={adoptBeforeSubmit}>
      <OfflineReason reason={offlineReason} />
      {children}
    </form>
  )
}

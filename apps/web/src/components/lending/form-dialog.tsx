import { type FormEvent, type ReactNode, useEffect, useId, useRef } from 'react'
import { Button } from '@/components/ui/button'

/**
 * A small form in a modal (the lending screens' asks, dates and reasons), on the native <dialog> like
 * ConfirmDialog: focus moves in and back, Escape closes, the page behind is inert. The first field has
 * the initial focus; the error, if any, is announced.
 */
export function FormDialog({
  open,
  title,
  description,
  submitLabel,
  cancelLabel,
  pending = false,
  submitDisabled = false,
  note,
  error,
  tone = 'primary',
  onSubmit,
  onClose,
  children,
}: {
  open: boolean
  title: string
  description?: ReactNode
  submitLabel: string
  cancelLabel: string
  pending?: boolean
  /** The submit button waits (e.g. for a photo still uploading); `note` says why, above the buttons. */
  submitDisabled?: boolean
  note?: string | null
  error?: string | null | undefined
  tone?: 'primary' | 'danger'
  onSubmit: () => void
  onClose: () => void
  children?: ReactNode
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const descriptionId = useId()
  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal?.()
    if (!open && dialog.open) dialog.close?.()
  }, [open])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!submitDisabled) onSubmit()
  }
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault()
        if (!pending) onClose()
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-border bg-surface p-6 text-fg shadow-lg backdrop:bg-black/40"
    >
      {open ? (
        <form noValidate onSubmit={submit} className="flex flex-col gap-4">
          <h2 id={titleId} className="text-lg font-semibold tracking-tight">
            {title}
          </h2>
          {description ? (
            <div id={descriptionId} className="text-sm text-fg-muted">
              {description}
            </div>
          ) : null}
          {children}
          {note ? <p className="text-sm text-fg-muted">{note}</p> : null}
          {error ? (
            <p role="alert" className="text-sm text-danger">
              {error}
            </p>
          ) : null}
          <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onClose} disabled={pending}>
              {cancelLabel}
            </Button>
            <Button type="submit" variant={tone} loading={pending} disabled={submitDisabled}>
              {submitLabel}
            </Button>
          </div>
        </form>
      ) : null}
    </dialog>
  )
}

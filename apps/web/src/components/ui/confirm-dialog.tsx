import { useEffect, useId, useRef, type ReactNode } from 'react'
import { Button, type ButtonVariant } from '@/components/ui/button'

export interface ConfirmDialogProps {
  open: boolean
  title: string
  description?: ReactNode
  confirmLabel: string
  cancelLabel: string
  /** 'danger' for removals and cancellations. */
  tone?: Extract<ButtonVariant, 'primary' | 'danger'>
  /** Keeps the dialog open with a spinner on the confirm button while the action runs. */
  pending?: boolean
  onConfirm(): void
  onCancel(): void
}

/**
 * A modal question with two answers, on the native <dialog>: focus moves in and back, Escape cancels,
 * the page behind is inert. Cancel has the initial focus, so Enter never confirms a removal by accident.
 */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  cancelLabel,
  tone = 'primary',
  pending = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const descriptionId = useId()

  useEffect(() => {
    const dialog = ref.current
    if (!dialog) return
    if (open && !dialog.open) dialog.showModal?.()
    if (!open && dialog.open) dialog.close?.()
  }, [open])

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault()
        if (!pending) onCancel()
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-lg border border-border bg-surface p-6 text-fg shadow-lg backdrop:bg-black/40"
    >
      {open && (
        <div className="flex flex-col gap-4">
          <h2 id={titleId} className="text-lg font-semibold tracking-tight">
            {title}
          </h2>
          {description && (
            <div id={descriptionId} className="text-sm text-fg-muted">
              {description}
            </div>
          )}
          <div className="mt-2 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onCancel} disabled={pending} autoFocus>
              {cancelLabel}
            </Button>
            <Button variant={tone} onClick={onConfirm} loading={pending}>
              {confirmLabel}
            </Button>
          </div>
        </div>
      )}
    </dialog>
  )
}

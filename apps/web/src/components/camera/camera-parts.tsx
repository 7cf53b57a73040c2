import { ImageUp, X } from 'lucide-react'
import { type ReactNode, useEffect, useId, useRef } from 'react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/class-names'
import type { RefObject } from 'react'
import type { CameraState, Facing } from './use-camera'

/**
 * The live preview of `useCamera` (mirrored for the front camera) with its starting/switching overlay.
 * `children` sits over it (the photo dialog's review). The words are the caller's.
 */
export function CameraPreview({
  videoRef,
  facing,
  state,
  showVideo,
  hidden,
  label,
  startingText,
  switchingText,
  children,
}: {
  videoRef: RefObject<HTMLVideoElement | null>
  facing: Facing
  state: CameraState
  showVideo: boolean
  hidden: boolean
  label: string
  startingText: string
  switchingText: string
  children?: ReactNode
}) {
  const busy = state.kind === 'starting' || state.kind === 'switching'
  const text = state.kind === 'switching' ? switchingText : startingText
  return (
    <div
      className={cn('relative aspect-video w-full overflow-hidden rounded-md bg-black', hidden && 'hidden')}
    >
      <video
        ref={videoRef}
        playsInline
        muted
        aria-label={label}
        className={cn(
          'size-full object-contain',
          facing === 'user' && '-scale-x-100',
          !showVideo && 'hidden',
        )}
      />
      {children}
      {busy && showVideo ? (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-black/60 text-white">
          <Spinner size="lg" label={text} />
          <span className="text-sm">{text}</span>
        </div>
      ) : null}
    </div>
  )
}

/** Why the camera is not used (if known), and picking a picture from the device instead. */
export function PictureFallback({
  problem,
  chooseText,
  onPick,
}: {
  problem: string | null
  chooseText: string
  onPick(file: File | undefined): void
}) {
  return (
    <div className="flex flex-col gap-3">
      {problem ? (
        <p role="alert" className="rounded-md border border-warning/30 bg-warning-soft p-3 text-sm text-fg">
          {problem}
        </p>
      ) : null}
      <label className="flex cursor-pointer flex-col items-center gap-2 rounded-md border border-dashed border-border-strong px-4 py-8 text-center text-sm text-fg-muted focus-within:outline-2 focus-within:outline-offset-2 hover:bg-surface-2">
        <ImageUp aria-hidden="true" className="size-6" />
        <span className="font-medium text-fg">{chooseText}</span>
        <input
          type="file"
          accept="image/*"
          className="sr-only"
          onChange={(event) => {
            onPick(event.target.files?.[0])
            // The same picture again (after a "not a Circles code") must fire a change too.
            event.target.value = ''
          }}
        />
      </label>
    </div>
  )
}

/**
 * The modal both camera dialogs live in: opened and closed with `open`, Escape and a click on the
 * backdrop call `onClose`, a title and a close button at the top. The content renders only while open.
 */
export function CameraDialogShell({
  open,
  title,
  closeLabel,
  onClose,
  children,
}: {
  open: boolean
  title: string
  closeLabel: string
  onClose(): void
  children: ReactNode
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()

  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (open && !element.open) element.showModal?.()
    if (!open && element.open) element.close?.()
  }, [open])

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === dialog.current) onClose()
      }}
      className="m-auto w-[calc(100%-1rem)] max-w-2xl rounded-lg border border-border bg-surface p-0 text-fg shadow-lg backdrop:bg-black/60"
    >
      {open ? (
        <div className="flex flex-col gap-4 p-4 sm:p-6">
          <div className="flex items-center justify-between gap-4">
            <h2 id={titleId} className="text-lg font-semibold tracking-tight">
              {title}
            </h2>
            <Button
              variant="ghost"
              size="sm"
              aria-label={closeLabel}
              onClick={onClose}
              icon={<X aria-hidden="true" />}
            />
          </div>
          {children}
        </div>
      ) : null}
    </dialog>
  )
}

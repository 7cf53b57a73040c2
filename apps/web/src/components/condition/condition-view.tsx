import type { TConditionSide } from '@circles/shared'
import { ImageOff, X } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PrivateImage, usePrivatePicture } from '@/components/private-image'
import { Spinner } from '@/components/ui/spinner'
import { Button } from '@/components/ui/button'

/** True when a side recorded anything: a photo or a note. */
export function hasEvidence(side: TConditionSide): boolean {
  return side.photos.length > 0 || Boolean(side.note)
}

/**
 * What one side recorded (issue 28): its photos as thumbnails (tap to see one large) and its note.
 * The pictures are members-only, fetched with the session like every item picture.
 */
export function ConditionSideView({
  side,
  title,
  person,
}: {
  side: TConditionSide
  /** E.g. "Ida Owner at the handover". */
  title: string
  /** Whose photos these are, for the photos' names. */
  person: string
}) {
  const { t } = useTranslation('loans')
  const [shown, setShown] = useState<number | null>(null)
  const titleId = useId()
  const photo = shown === null ? undefined : side.photos[shown]
  return (
    <section aria-labelledby={titleId} className="flex min-w-0 flex-col gap-2">
      <h4 id={titleId} className="text-sm font-medium text-fg">
        {title}
      </h4>
      {side.photos.length ? (
        <ul className="grid max-w-sm grid-cols-4 gap-2">
          {side.photos.map((p, index) => (
            <li key={p.id}>
              <button
                type="button"
                onClick={() => setShown(index)}
                aria-label={t('condition.openPhoto', {
                  number: index + 1,
                  count: side.photos.length,
                  name: person,
                })}
                className="block aspect-square w-full overflow-hidden rounded-md border border-border transition-opacity duration-150 hover:opacity-90 focus-visible:outline-2 focus-visible:outline-offset-2"
              >
                <PrivateImage url={p.thumbnailUrl} alt="" className="size-full" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {side.note ? (
        <blockquote className="border-s-2 border-border-strong ps-3 text-sm whitespace-pre-line break-words text-fg">
          {side.note}
        </blockquote>
      ) : null}
      {!hasEvidence(side) ? <p className="text-sm text-fg-muted">{t('condition.nothing')}</p> : null}
      <PhotoViewer
        url={photo?.url ?? null}
        title={
          shown === null
            ? ''
            : t('condition.photoOf', { number: shown + 1, count: side.photos.length, name: person })
        }
        onClose={() => setShown(null)}
      />
    </section>
  )
}

/** One photo large, in a modal: Escape, the backdrop and × close it; focus returns to the thumbnail. */
export function PhotoViewer({ url, title, onClose }: { url: string | null; title: string; onClose(): void }) {
  const { t } = useTranslation('loans')
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const open = url !== null
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
      onCancel={(event) => {
        event.preventDefault()
        onClose()
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose()
      }}
      className="m-auto w-[calc(100%-1rem)] max-w-3xl rounded-lg border border-border bg-surface p-0 text-fg shadow-lg backdrop:bg-black/70"
    >
      {open ? (
        <div className="flex flex-col gap-3 p-3 sm:p-4">
          <div className="flex items-center justify-between gap-3">
            <h2 id={titleId} className="text-base font-semibold tracking-tight">
              {title}
            </h2>
            <Button
              variant="ghost"
              size="sm"
              aria-label={t('condition.closePhoto')}
              icon={<X aria-hidden="true" />}
              onClick={onClose}
            />
          </div>
          <LargePhoto url={url} alt={title} />
        </div>
      ) : null}
    </dialog>
  )
}

/** The photo itself, whole (not cropped), fetched with the session. */
function LargePhoto({ url, alt }: { url: string | null; alt: string }) {
  const { t } = useTranslation()
  const picture = usePrivatePicture(url)
  if (picture.data) {
    return <img src={picture.data} alt={alt} className="max-h-[75dvh] w-full rounded-md object-contain" />
  }
  return (
    <div className="flex aspect-[4/3] w-full flex-col items-center justify-center gap-1 rounded-md bg-surface-2 text-sm text-fg-subtle">
      {picture.isError ? (
        <>
          <ImageOff aria-hidden="true" className="size-6" />
          {t('imageNotAvailable')}
        </>
      ) : (
        <Spinner label={t('loading')} />
      )}
    </div>
  )
}

import { LIMITS, type TConditionPhoto } from '@circles/shared'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { compressImage } from '@/lib/compress-image'
import { pictureProblem } from '@/lib/picture-check'
import { failureText } from '@/lib/server-errors'
import { UploadError, type UploadFailure } from '@/lib/upload-picture'
import { deleteConditionPhoto, uploadConditionPhoto } from './condition-photos-api'

/** One photo of the editor: shown at once from the file (`preview`), uploaded on its own. */
export type PhotoSlot = {
  key: string
  file: File
  /** A blob URL of the picked file, freed when the slot goes. */
  preview: string
} & (
  | { phase: 'preparing' }
  | { phase: 'uploading'; percent: number }
  | { phase: 'failed'; message: string }
  | { phase: 'done'; photo: TConditionPhoto }
)

export interface ConditionPhotos {
  slots: PhotoSlot[]
  /** Photos of the picked files that cannot go up (not a picture, one too many): said once, by name. */
  notice: string | null
  /** The uploaded photos' ids, in the order they were added: what the request attaches. */
  photoIds: string[]
  /** A photo is still on its way: the request waits (its button is disabled and says why). */
  uploading: boolean
  /** A photo failed: retry or remove it before sending, so nothing the person added is left out unseen. */
  failed: boolean
  full: boolean
  add(files: readonly File[]): void
  retry(key: string): void
  remove(key: string): void
  /** Forgets every photo, e.g. once they are attached; `discard` also deletes the uploaded ones. */
  reset(options?: { discard?: boolean }): void
}

let nextKey = 0

/**
 * The photos of one side of a handover while they are being added (issue 28): each picked or taken
 * photo is checked, shrunk and uploaded at once to POST /api/handovers/photos, with its progress and
 * its failure; × aborts an upload or deletes the unattached photo. At most LIMITS.conditionPhotosMax.
 */
export function useConditionPhotos(): ConditionPhotos {
  const { t } = useTranslation('loans')
  const [slots, setSlots] = useState<PhotoSlot[]>([])
  const [notice, setNotice] = useState<string | null>(null)
  const aborts = useRef(new Map<string, AbortController>())
  // The slots as of the last change, read by the callbacks: two quick picks must not make five photos.
  const slotsRef = useRef<PhotoSlot[]>([])
  const commit = useCallback((change: (current: PhotoSlot[]) => PhotoSlot[]) => {
    slotsRef.current = change(slotsRef.current)
    setSlots(slotsRef.current)
  }, [])

  const update = useCallback(
    (key: string, change: Partial<PhotoSlot> & { phase: PhotoSlot['phase'] }) =>
      commit((current) =>
        current.map((slot) => (slot.key === key ? ({ ...slot, ...change } as PhotoSlot) : slot)),
      ),
    [commit],
  )

  const failureMessage = useCallback(
    (failure: UploadFailure | { reason: 'tooLarge'; size: string }) =>
      failure.reason === 'tooLarge'
        ? t('condition.errors.tooLarge', { size: failure.size })
        : failure.reason === 'server'
          ? failureText(failure, failure.message)
          : failure.reason === 'status'
            ? t('condition.errors.status', { status: failure.status })
            : t(`condition.errors.${failure.reason}`),
    [t],
  )

  const send = useCallback(
    async (key: string, original: File) => {
      const abort = new AbortController()
      aborts.current.set(key, abort)
      update(key, { phase: 'preparing' })
      const { file } = await compressImage(original)
      if (abort.signal.aborted) return
      if (file.size > LIMITS.maxImageBytes) {
        const size = (file.size / (1024 * 1024)).toFixed(1)
        update(key, { phase: 'failed', message: failureMessage({ reason: 'tooLarge', size }) })
        return
      }
      update(key, { phase: 'uploading', percent: 0 })
      try {
        const photo = await uploadConditionPhoto(file, {
          signal: abort.signal,
          onProgress: (percent) => update(key, { phase: 'uploading', percent }),
        })
        if (abort.signal.aborted) {
          // Removed while its answer was on the way: it must not stay on the server either.
          void deleteConditionPhoto(photo.id).catch(() => undefined)
          return
        }
        update(key, { phase: 'done', photo })
      } catch (error) {
        if (abort.signal.aborted) return
        const failure: UploadFailure = error instanceof UploadError ? error.failure : { reason: 'network' }
        update(key, { phase: 'failed', message: failureMessage(failure) })
      } finally {
        if (aborts.current.get(key) === abort) aborts.current.delete(key)
      }
    },
    [failureMessage, update],
  )

  const add = useCallback(
    (files: readonly File[]) => {
      void (async () => {
        const problems: string[] = []
        const accepted: File[] = []
        for (const file of files) {
          const problem = await pictureProblem(file, t('condition.notAnImage'))
          if (problem) problems.push(`${file.name}: ${problem}`)
          else accepted.push(file)
        }
        const room = LIMITS.conditionPhotosMax - slotsRef.current.length
        const taken = accepted.slice(0, Math.max(room, 0))
        const left = accepted.length - taken.length
        if (left > 0) problems.push(t('condition.tooMany', { count: left, max: LIMITS.conditionPhotosMax }))
        setNotice(problems.length ? problems.join(' ') : null)
        const added = taken.map((file): PhotoSlot => ({
          key: `photo-${++nextKey}`,
          file,
          preview: URL.createObjectURL(file),
          phase: 'preparing',
        }))
        if (!added.length) return
        commit((current) => [...current, ...added])
        for (const slot of added) void send(slot.key, slot.file)
      })()
    },
    [commit, send, t],
  )

  const retry = useCallback(
    (key: string) => {
      const slot = slotsRef.current.find((s) => s.key === key)
      if (slot?.phase === 'failed') void send(key, slot.file)
    },
    [send],
  )

  const remove = useCallback(
    (key: string) => {
      const slot = slotsRef.current.find((s) => s.key === key)
      if (!slot) return
      aborts.current.get(key)?.abort()
      aborts.current.delete(key)
      // Gone from the request at once; the server forgets an unattached photo anyway after a day.
      if (slot.phase === 'done') void deleteConditionPhoto(slot.photo.id).catch(() => undefined)
      URL.revokeObjectURL(slot.preview)
      commit((current) => current.filter((s) => s.key !== key))
      setNotice(null)
    },
    [commit],
  )

  const reset = useCallback(
    ({ discard = false }: { discard?: boolean } = {}) => {
      for (const slot of slotsRef.current) {
        aborts.current.get(slot.key)?.abort()
        if (discard && slot.phase === 'done') void deleteConditionPhoto(slot.photo.id).catch(() => undefined)
        URL.revokeObjectURL(slot.preview)
      }
      aborts.current.clear()
      commit(() => [])
      setNotice(null)
    },
    [commit],
  )

  // Leaving the screen: uploads on their way stop and the previews are freed. Uploaded photos are not
  // deleted here: a request sent a moment ago may be attaching them right now (Back while it is on its
  // way); unattached ones expire on the server.
  useEffect(() => {
    const controllers = aborts.current
    return () => {
      for (const controller of controllers.values()) controller.abort()
      for (const slot of slotsRef.current) URL.revokeObjectURL(slot.preview)
    }
  }, [])

  return useMemo(() => {
    const photoIds = slots.flatMap((slot) => (slot.phase === 'done' ? [slot.photo.id] : []))
    return {
      slots,
      notice,
      photoIds,
      uploading: slots.some((slot) => slot.phase === 'preparing' || slot.phase === 'uploading'),
      failed: slots.some((slot) => slot.phase === 'failed'),
      full: slots.length >= LIMITS.conditionPhotosMax,
      add,
      retry,
      remove,
      reset,
    }
  }, [slots, notice, add, retry, remove, reset])
}

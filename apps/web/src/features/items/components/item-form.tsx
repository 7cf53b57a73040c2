import { zodResolver } from '@hookform/resolvers/zod'
import { LIMITS, MESSAGES, type TItem, type TItemForm, ZItemForm } from '@circles/shared'
import { Camera, ImagePlus, RotateCw, X } from 'lucide-react'
import { useQueryClient } from '@tanstack/react-query'
import { lazy, Suspense, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { FileButton } from '@/components/ui/file-button'
import { Form } from '@/components/ui/form'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import {
  dismissValidationToast,
  fieldErrorText,
  firstErrorMessage,
  showValidationToast,
} from '@/lib/form-errors'
import { notify } from '@/lib/notify'
import { failureMessage, failureText as serverFailureText, translateServerError } from '@/lib/server-errors'
import { useSingleFlight } from '@/lib/use-guarded-mutation'
import { itemKeys, useCreateItem, useUpdateItem } from '../api/items'
import { UploadError, type UploadFailure } from '@/lib/upload-picture'
import { uploadItemImage } from '../api/upload-item-image'
import { compressImage } from '@/lib/compress-image'
import { pictureProblem, PICTURE_TYPES } from '@/lib/picture-check'
import { PrivateImage } from '@/components/private-image'

/** The camera's code loads when the camera is first asked for, not with every item form (docs/decisions/0055). */
const CameraDialog = lazy(() =>
  import('@/components/camera/camera-dialog').then((m) => ({ default: m.CameraDialog })),
)

/** Why the picture did not go up: the upload's own failures, or still too large after shrinking. */
type PictureFailure = UploadFailure | { reason: 'tooLarge'; size: string }

type UploadState =
  | { phase: 'idle' }
  | { phase: 'preparing' }
  | { phase: 'uploading'; percent: number }
  | { phase: 'failed'; item: TItem; failure: PictureFailure }

/**
 * The inline add form of a circle's items page (spec 001 §2, §5): name required, description and
 * picture optional. The item is created first, then its picture uploads with a real progress bar that
 * can be cancelled; a failed upload keeps the item and offers Retry.
 */
export function ItemForm({
  circleId,
  item,
  onDone,
}: {
  circleId: string
  /** The item to edit; without it the form adds one. */
  item?: TItem
  onDone(item: TItem): void
}) {
  const { t } = useTranslation('items')
  const form = useForm<TItemForm>({
    resolver: zodResolver(ZItemForm),
    defaultValues: item ? { name: item.name, description: item.description ?? '' } : undefined,
  })
  const { errors } = form.formState
  const create = useCreateItem()
  const update = useUpdateItem(item?.id ?? '')
  const [removePicture, setRemovePicture] = useState(false)
  const [cameraOpen, setCameraOpen] = useState(false)
  /** Mounted from the first open on, so closing it keeps its own behaviour (focus back, stream stopped). */
  const [cameraWanted, setCameraWanted] = useState(false)
  const queryClient = useQueryClient()
  const [file, setFile] = useState<File | null>(null)
  // A refused pick stands until a real picture or none is chosen: the form does not save meanwhile.
  const [pickProblem, setPickProblem] = useState<string | null>(null)
  const latestPick = useRef(0)
  const [upload, setUpload] = useState<UploadState>({ phase: 'idle' })
  const abort = useRef<AbortController | null>(null)
  // The save (item, then picture) and Retry run one at a time: a double click saves once.
  const flight = useSingleFlight()

  async function sendPicture(saved: TItem, original: File) {
    abort.current = new AbortController()
    setUpload({ phase: 'preparing' })
    const { file: picture, fellBack } = await compressImage(original)
    if (fellBack) notify.warning(t('upload.compressionFailed'))
    if (picture.size > LIMITS.maxImageBytes) {
      const size = (picture.size / (1024 * 1024)).toFixed(1)
      setUpload({ phase: 'failed', item: saved, failure: { reason: 'tooLarge', size } })
      return
    }
    setUpload({ phase: 'uploading', percent: 0 })
    try {
      await uploadItemImage(saved.id, picture, {
        onProgress: (percent) => setUpload({ phase: 'uploading', percent }),
        signal: abort.current.signal,
      })
      setUpload({ phase: 'idle' })
      await queryClient.invalidateQueries({ queryKey: itemKeys.all })
      notify.success(t(item ? 'form.updated' : 'form.created'))
      onDone(saved)
    } catch (error) {
      const failure: UploadFailure = error instanceof UploadError ? error.failure : { reason: 'network' }
      setUpload({ phase: 'failed', item: saved, failure })
    }
  }

  const save = (values: TItemForm) => {
    if (pickProblem) {
      notify.error(pickProblem)
      return
    }
    return flight.run(() => saveOnce(values))
  }

  async function pick(input: HTMLInputElement) {
    const picked = input.files?.[0] ?? null
    const pickNumber = ++latestPick.current
    setFile(null)
    const problem = picked && (await pictureProblem(picked, t('upload.notAnImage')))
    if (pickNumber !== latestPick.current) return
    if (problem) {
      notify.error(problem)
      input.value = ''
      setPickProblem(problem)
      return
    }
    setPickProblem(null)
    setFile(picked)
  }

  async function saveOnce(values: TItemForm) {
    dismissValidationToast()
    const body = { name: values.name, description: values.description ?? null }
    const saving = item
      ? update.mutateAsync({ ...body, ...(removePicture && !file ? { imageUrl: null } : {}) })
      : create.mutateAsync({ circleId, ...body })
    const created = await saving.catch((error: unknown) => {
      notify.error(failureMessage(error, t('form.saveFailed')))
      return null
    })
    if (!created) return
    if (file) await sendPicture(created.item, file)
    else {
      notify.success(t(item ? 'form.updated' : 'form.created'))
      onDone(created.item)
    }
  }

  const failureText = (failure: PictureFailure) =>
    failure.reason === 'tooLarge'
      ? t('upload.errors.tooLarge', { size: failure.size })
      : failure.reason === 'server'
        ? t('upload.errors.failedWith', { error: serverFailureText(failure, failure.message) })
        : failure.reason === 'status'
          ? t('upload.errors.status', { status: failure.status })
          : t(`upload.errors.${failure.reason}`)

  const busy =
    flight.busy ||
    create.isPending ||
    update.isPending ||
    upload.phase === 'uploading' ||
    upload.phase === 'preparing'
  return (
    <Form
      form={form}
      onSubmit={(event) =>
        // Spec 001 §5: the first error also shows as a banner (toast), else 'Please fill in all required fields'.
        void form.handleSubmit(save, (fieldErrors) =>
          showValidationToast(
            translateServerError(
              firstErrorMessage(fieldErrors, ['name', 'description']) ?? MESSAGES.required,
            ),
          ),
        )(event)
      }
      aria-label={t('form.title')}
      className="flex flex-col gap-5"
    >
      <FormField label={t('form.name')} error={fieldErrorText(errors.name?.message)}>
        {(field) => <Input {...field} autoComplete="off" disabled={busy} {...form.register('name')} />}
      </FormField>
      <FormField
        label={t('form.description')}
        hint={t('form.descriptionHint')}
        error={fieldErrorText(errors.description?.message)}
      >
        {(field) => <Textarea {...field} rows={3} disabled={busy} {...form.register('description')} />}
      </FormField>
      {item?.thumbnailUrl && !file ? (
        <div className="flex items-center gap-4">
          <PrivateImage
            url={removePicture ? null : item.thumbnailUrl}
            alt={t('card.pictureOf', { name: item.name })}
            className="size-20 rounded-md"
          />
          <label className="flex items-center gap-2 text-sm text-fg">
            <input
              type="checkbox"
              className="size-4 accent-accent"
              checked={removePicture}
              onChange={(event) => setRemovePicture(event.target.checked)}
              disabled={busy}
            />
            {t('form.removePicture')}
          </label>
        </div>
      ) : null}
      <FormField
        label={item?.imageUrl ? t('form.replacePicture') : t('form.picture')}
        hint={t('form.pictureHint')}
        error={pickProblem ?? undefined}
      >
        {(field) => (
          <div className="flex flex-wrap items-center gap-3">
            <FileButton
              {...field}
              accept={PICTURE_TYPES}
              disabled={busy}
              onChange={(event) => void pick(event.currentTarget)}
            >
              {t('form.choosePicture')}
            </FileButton>
            <Button
              variant="secondary"
              size="sm"
              icon={<Camera aria-hidden="true" />}
              disabled={busy}
              onClick={() => {
                setCameraWanted(true)
                setCameraOpen(true)
              }}
            >
              {t('camera.open')}
            </Button>
            {pickProblem ? (
              <Button variant="ghost" size="sm" disabled={busy} onClick={() => setPickProblem(null)}>
                {t('form.withoutPicture')}
              </Button>
            ) : null}
            {file ? (
              <span className="text-sm text-fg-muted" role="status">
                {t('form.chosen', { name: file.name })}
              </span>
            ) : null}
          </div>
        )}
      </FormField>
      {cameraWanted ? (
        <Suspense fallback={null}>
          <CameraDialog
            open={cameraOpen}
            onClose={() => setCameraOpen(false)}
            onConfirm={(photo) => {
              latestPick.current++
              setPickProblem(null)
              setFile(photo)
              setCameraOpen(false)
            }}
          />
        </Suspense>
      ) : null}

      {upload.phase === 'preparing' ? (
        <p role="status" className="text-sm text-fg-muted">
          {t('upload.preparing')}
        </p>
      ) : null}

      {upload.phase === 'uploading' ? (
        <div className="flex items-center gap-3">
          <progress
            className="h-2 flex-1 overflow-hidden rounded-full accent-accent"
            max={100}
            value={upload.percent}
            aria-label={t('upload.progress', { percent: upload.percent })}
          />
          <span className="w-10 text-end text-sm tabular-nums text-fg-muted">{upload.percent}%</span>
          <Button
            variant="ghost"
            size="sm"
            icon={<X aria-hidden="true" />}
            onClick={() => abort.current?.abort()}
          >
            {t('upload.cancel')}
          </Button>
        </div>
      ) : null}

      {upload.phase === 'failed' ? (
        <div
          role="alert"
          className="flex flex-col gap-3 rounded-md border border-danger/30 bg-danger-soft p-3 text-sm text-danger sm:flex-row sm:items-center"
        >
          <span className="flex flex-1 flex-col gap-0.5">
            <span className="font-medium">{t('upload.failedTitle')}</span>
            <span>{failureText(upload.failure)}</span>
          </span>
          <div className="flex gap-2">
            <Button
              variant="secondary"
              size="sm"
              icon={<RotateCw aria-hidden="true" />}
              onClick={() => file && void flight.run(() => sendPicture(upload.item, file))}
            >
              {t('upload.retry')}
            </Button>
            <Button variant="ghost" size="sm" onClick={() => onDone(upload.item)}>
              {t('upload.skip')}
            </Button>
          </div>
        </div>
      ) : null}

      <div className="flex justify-end">
        <Button
          type="submit"
          size="lg"
          loading={busy}
          disabled={upload.phase === 'failed'}
          icon={<ImagePlus aria-hidden="true" />}
        >
          {item ? t('form.saveChanges') : t('form.save')}
        </Button>
      </div>
    </Form>
  )
}

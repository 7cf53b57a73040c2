import { Camera, ImageUp, RefreshCw, RotateCcw, SwitchCamera, X } from 'lucide-react'
import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/class-names'
import { pictureProblem } from '@/lib/picture-check'

/** Spec 001 §9: ideal 1280x720, at most 1920x1080, a 300 ms start delay, JPEG at quality 0.95. */
const CAMERA = { idealWidth: 1280, idealHeight: 720, maxWidth: 1920, maxHeight: 1080, startDelayMs: 300 }
const JPEG_QUALITY = 0.95

type Facing = 'user' | 'environment'
type CameraProblem = 'denied' | 'notFound' | 'inUse' | 'unsupportedSettings' | 'generic' | 'noSupport'
type View =
  | { kind: 'starting' }
  | { kind: 'live' }
  | { kind: 'switching' }
  | { kind: 'review'; file: File; url: string }
  | { kind: 'upload'; problem?: CameraProblem }
  | { kind: 'failed'; problem: CameraProblem }

function problemOf(error: unknown): CameraProblem {
  const name = error instanceof DOMException ? error.name : ''
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied'
  if (name === 'NotFoundError' || name === 'DevicesNotFoundError') return 'notFound'
  if (name === 'NotReadableError' || name === 'TrackStartError') return 'inUse'
  if (name === 'OverconstrainedError' || name === 'ConstraintNotSatisfiedError') return 'unsupportedSettings'
  return 'generic'
}

const hasCameraSupport = () =>
  typeof navigator !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia)

export interface CameraDialogProps {
  open: boolean
  onClose(): void
  /** The photo taken or picked, once confirmed. */
  onConfirm(file: File): void
}

/**
 * Take a photo of an item (spec 001 §2 "Camera and photo capture dialog", §4, §9): live preview
 * (mirrored for the front camera), a front/back switch where there are several cameras, capture,
 * Retake / Confirm, and picking a file instead when there is no camera or it fails.
 */
export function CameraDialog({ open, onClose, onConfirm }: CameraDialogProps) {
  const { t } = useTranslation('items')
  const dialog = useRef<HTMLDialogElement>(null)
  const video = useRef<HTMLVideoElement>(null)
  const stream = useRef<MediaStream | null>(null)
  const titleId = useId()
  const [view, setView] = useState<View>({ kind: 'starting' })
  const [facing, setFacing] = useState<Facing>('environment')
  const [cameras, setCameras] = useState(0)
  const [processing, setProcessing] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)

  // Every start counts up; stopping counts up too, so a start still waiting for its stream knows it is
  // no longer wanted and stops the stream the moment it arrives (the dialog was closed meanwhile).
  const attempt = useRef(0)

  const releaseStream = useCallback(() => {
    stream.current?.getTracks().forEach((track) => track.stop())
    stream.current = null
  }, [])

  const stopStream = useCallback(() => {
    attempt.current++
    releaseStream()
  }, [releaseStream])

  const startCamera = useCallback(
    async (wanted: Facing, switching = false) => {
      if (!hasCameraSupport()) {
        setView({ kind: 'upload', problem: 'noSupport' })
        return
      }
      const mine = ++attempt.current
      const stillWanted = () => attempt.current === mine
      setView({ kind: switching ? 'switching' : 'starting' })
      await new Promise((resolve) => setTimeout(resolve, CAMERA.startDelayMs))
      if (!stillWanted()) return
      try {
        const next = await navigator.mediaDevices.getUserMedia({
          audio: false,
          video: {
            facingMode: wanted,
            width: { ideal: CAMERA.idealWidth, max: CAMERA.maxWidth },
            height: { ideal: CAMERA.idealHeight, max: CAMERA.maxHeight },
          },
        })
        if (!stillWanted()) {
          next.getTracks().forEach((track) => track.stop())
          return
        }
        releaseStream()
        stream.current = next
        if (video.current) {
          video.current.srcObject = next
          await video.current.play().catch(() => undefined)
        }
        const devices = await navigator.mediaDevices.enumerateDevices().catch(() => [])
        if (!stillWanted()) return
        setCameras(devices.filter((device) => device.kind === 'videoinput').length)
        setFacing(wanted)
        setView({ kind: 'live' })
      } catch (error) {
        if (!stillWanted()) return
        if (switching && stream.current) {
          // The other camera failed: keep the one that works.
          setNotice(t('camera.switchFailed'))
          setView({ kind: 'live' })
          return
        }
        releaseStream()
        if (switching) setNotice(t('camera.switchingFailed'))
        setView({ kind: 'failed', problem: problemOf(error) })
      }
    },
    [releaseStream, t],
  )

  useEffect(() => {
    const element = dialog.current
    if (!element) return
    if (open && !element.open) {
      element.showModal?.()
      setNotice(null)
      void startCamera('environment')
    }
    if (!open && element.open) element.close?.()
    if (!open) stopStream()
  }, [open, startCamera, stopStream])

  useEffect(() => stopStream, [stopStream])

  const close = () => {
    stopStream()
    if (view.kind === 'review') URL.revokeObjectURL(view.url)
    onClose()
  }

  const capture = () => {
    const source = video.current
    if (!source) {
      setNotice(t('camera.videoMissing'))
      return
    }
    if (!stream.current) {
      setNotice(t('camera.notReady'))
      return
    }
    if (source.readyState < 2) {
      setNotice(t('camera.streamNotReady'))
      return
    }
    const canvas = document.createElement('canvas')
    canvas.width = source.videoWidth || CAMERA.idealWidth
    canvas.height = source.videoHeight || CAMERA.idealHeight
    const context = canvas.getContext('2d')
    if (!context) {
      setNotice(t('camera.noCanvas'))
      return
    }
    try {
      context.drawImage(source, 0, 0, canvas.width, canvas.height)
    } catch {
      setNotice(t('camera.unexpected'))
      return
    }
    canvas.toBlob(
      (blob) => {
        if (!blob) {
          setNotice(t('camera.captureFailed'))
          return
        }
        if (blob.size === 0) {
          setNotice(t('camera.invalidCapture'))
          return
        }
        const file = new File([blob], `photo_${Date.now()}.jpg`, { type: 'image/jpeg' })
        setView({ kind: 'review', file, url: URL.createObjectURL(file) })
      },
      'image/jpeg',
      JPEG_QUALITY,
    )
  }

  const pick = async (file: File | undefined) => {
    if (!file) return
    const problem = await pictureProblem(file, t('upload.notAnImage'))
    if (problem) {
      setNotice(problem)
      return
    }
    setNotice(null)
    setView({ kind: 'review', file, url: URL.createObjectURL(file) })
  }

  const retake = () => {
    if (view.kind === 'review') URL.revokeObjectURL(view.url)
    setNotice(null)
    if (stream.current) setView({ kind: 'live' })
    else setView({ kind: 'upload' })
  }

  const confirm = () => {
    if (view.kind !== 'review') {
      setNotice(t('camera.photoMissing'))
      return
    }
    if (view.file.size === 0) {
      setNotice(t('camera.invalidCapture'))
      return
    }
    if (!view.file.type.startsWith('image/')) {
      setNotice(t('camera.invalidImage'))
      return
    }
    setProcessing(true)
    try {
      stopStream()
      URL.revokeObjectURL(view.url)
      onConfirm(view.file)
    } catch {
      setNotice(t('camera.processFailed'))
    } finally {
      setProcessing(false)
    }
  }

  const title =
    view.kind === 'review'
      ? t('camera.reviewTitle')
      : view.kind === 'upload'
        ? t('camera.uploadTitle')
        : t('camera.takeTitle')
  const liveVisible = view.kind === 'live' || view.kind === 'switching' || view.kind === 'starting'

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault()
        close()
      }}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself.
        if (event.target === dialog.current) close()
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
              aria-label={t('camera.close')}
              onClick={close}
              icon={<X aria-hidden="true" />}
            />
          </div>

          <div
            className={cn(
              'relative aspect-video w-full overflow-hidden rounded-md bg-black',
              !liveVisible && view.kind !== 'review' && 'hidden',
            )}
          >
            <video
              ref={video}
              playsInline
              muted
              aria-label={t('camera.preview')}
              className={cn(
                'size-full object-contain',
                facing === 'user' && '-scale-x-100',
                !liveVisible && 'hidden',
              )}
            />
            {view.kind === 'review' ? (
              <img src={view.url} alt={t('camera.captured')} className="size-full object-contain" />
            ) : null}
            {view.kind === 'starting' || view.kind === 'switching' ? (
              <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-black/60 text-white">
                <Spinner
                  size="lg"
                  label={view.kind === 'switching' ? t('camera.switching') : t('camera.starting')}
                />
                <span className="text-sm">
                  {view.kind === 'switching' ? t('camera.switching') : t('camera.starting')}
                </span>
              </div>
            ) : null}
          </div>

          {view.kind === 'failed' || view.kind === 'upload' ? (
            <div className="flex flex-col gap-3">
              {view.problem ? (
                <p
                  role="alert"
                  className="rounded-md border border-warning/30 bg-warning-soft p-3 text-sm text-fg"
                >
                  {t(`camera.problems.${view.problem}`)}
                </p>
              ) : null}
              <label className="flex cursor-pointer flex-col items-center gap-2 rounded-md border border-dashed border-border-strong px-4 py-8 text-center text-sm text-fg-muted focus-within:outline-2 focus-within:outline-offset-2 hover:bg-surface-2">
                <ImageUp aria-hidden="true" className="size-6" />
                <span className="font-medium text-fg">{t('camera.chooseFile')}</span>
                <input
                  type="file"
                  accept="image/*"
                  className="sr-only"
                  onChange={(event) => void pick(event.target.files?.[0])}
                />
              </label>
            </div>
          ) : null}

          {notice ? (
            <p role="status" className="text-sm text-danger">
              {notice}
            </p>
          ) : null}

          <div className="flex flex-wrap justify-end gap-2">
            {view.kind === 'failed' ? (
              <Button
                variant="secondary"
                icon={<RefreshCw aria-hidden="true" />}
                onClick={() => void startCamera(facing)}
              >
                {t('camera.tryAgain')}
              </Button>
            ) : null}
            {view.kind === 'live' ? (
              <>
                {cameras > 1 ? (
                  <Button
                    variant="secondary"
                    icon={<SwitchCamera aria-hidden="true" />}
                    onClick={() => void startCamera(facing === 'user' ? 'environment' : 'user', true)}
                  >
                    {t('camera.switch')}
                  </Button>
                ) : null}
                <Button
                  variant="secondary"
                  icon={<ImageUp aria-hidden="true" />}
                  onClick={() => {
                    stopStream()
                    setView({ kind: 'upload' })
                  }}
                >
                  {t('camera.uploadInstead')}
                </Button>
                <Button icon={<Camera aria-hidden="true" />} onClick={capture}>
                  {t('camera.capture')}
                </Button>
              </>
            ) : null}
            {view.kind === 'review' ? (
              <>
                <Button
                  variant="secondary"
                  icon={<RotateCcw aria-hidden="true" />}
                  onClick={retake}
                  disabled={processing}
                >
                  {t('camera.retake')}
                </Button>
                <Button onClick={confirm} loading={processing} needsServer={false}>
                  {processing ? t('camera.processing') : t('camera.confirm')}
                </Button>
              </>
            ) : null}
          </div>
        </div>
      ) : null}
    </dialog>
  )
}

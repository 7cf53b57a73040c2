import { Camera as CameraIcon, ImageUp, RefreshCw, RotateCcw, SwitchCamera } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CameraDialogShell, CameraPreview, PictureFallback } from '@/components/camera/camera-parts'
import { CAMERA, type CameraProblem, useCamera } from '@/components/camera/use-camera'
import { Button } from '@/components/ui/button'
import { pictureProblem } from '@/lib/picture-check'

/** Spec 001 §9: JPEG at quality 0.95. */
const JPEG_QUALITY = 0.95

/** What the dialog shows besides the camera: the photo to confirm, or picking a file. */
type Mode =
  | { kind: 'camera' }
  | { kind: 'review'; file: File; url: string }
  | { kind: 'upload'; problem?: CameraProblem }

export interface CameraDialogProps {
  open: boolean
  onClose(): void
  /** The photo taken or picked, once confirmed. */
  onConfirm(file: File): void
}

/**
 * Take a photo of an item (spec 001 §2 "Camera and photo capture dialog", §4, §9): live preview
 * (mirrored for the front camera), a front/back switch where there are several cameras, capture,
 * Retake / Confirm, and picking a file instead when there is no camera or it fails. The camera itself
 * (permission, cameras, errors) is components/camera, shared with the scan dialog.
 */
export function CameraDialog({ open, onClose, onConfirm }: CameraDialogProps) {
  const { t } = useTranslation('items')
  const camera = useCamera()
  const { start, stop, setNotice } = camera
  const [mode, setMode] = useState<Mode>({ kind: 'camera' })
  const [processing, setProcessing] = useState(false)
  const [message, setMessage] = useState<string | null>(null)

  useEffect(() => {
    if (open) void start('environment')
    else stop()
  }, [open, start, stop])

  /** The next opening starts afresh. */
  const reset = () => {
    setMode({ kind: 'camera' })
    setMessage(null)
    setNotice(null)
  }

  const state = camera.state
  const view =
    mode.kind !== 'camera'
      ? mode
      : state.kind === 'off'
        ? state.problem
          ? ({ kind: 'upload', problem: state.problem } as const)
          : ({ kind: 'starting' } as const)
        : state
  const notice = message ?? (camera.notice ? t(`camera.${camera.notice}`) : null)

  const close = () => {
    stop()
    if (mode.kind === 'review') URL.revokeObjectURL(mode.url)
    reset()
    onClose()
  }

  const capture = () => {
    const source = camera.video.current
    if (!source) {
      setMessage(t('camera.videoMissing'))
      return
    }
    if (!camera.stream.current) {
      setMessage(t('camera.notReady'))
      return
    }
    if (source.readyState < 2) {
      setMessage(t('camera.streamNotReady'))
      return
    }
    const canvas = document.createElement('canvas')
    canvas.width = source.videoWidth || CAMERA.idealWidth
    canvas.height = source.videoHeight || CAMERA.idealHeight
    const context = canvas.getContext('2d')
    if (!context) {
      setMessage(t('camera.noCanvas'))
      return
    }
    try {
      context.drawImage(source, 0, 0, canvas.width, canvas.height)
    } catch {
      setMessage(t('camera.unexpected'))
      return
    }
    canvas.toBlob(
      (blob) => {
        if (!blob) {
          setMessage(t('camera.captureFailed'))
          return
        }
        if (blob.size === 0) {
          setMessage(t('camera.invalidCapture'))
          return
        }
        const file = new File([blob], `photo_${Date.now()}.jpg`, { type: 'image/jpeg' })
        setMode({ kind: 'review', file, url: URL.createObjectURL(file) })
      },
      'image/jpeg',
      JPEG_QUALITY,
    )
  }

  const pick = async (file: File | undefined) => {
    if (!file) return
    const problem = await pictureProblem(file, t('upload.notAnImage'))
    if (problem) {
      setMessage(problem)
      return
    }
    setMessage(null)
    setMode({ kind: 'review', file, url: URL.createObjectURL(file) })
  }

  const retake = () => {
    if (mode.kind === 'review') URL.revokeObjectURL(mode.url)
    setMessage(null)
    setNotice(null)
    if (camera.stream.current) setMode({ kind: 'camera' })
    else setMode({ kind: 'upload' })
  }

  const confirm = () => {
    if (mode.kind !== 'review') {
      setMessage(t('camera.photoMissing'))
      return
    }
    if (mode.file.size === 0) {
      setMessage(t('camera.invalidCapture'))
      return
    }
    if (!mode.file.type.startsWith('image/')) {
      setMessage(t('camera.invalidImage'))
      return
    }
    setProcessing(true)
    try {
      stop()
      URL.revokeObjectURL(mode.url)
      reset()
      onConfirm(mode.file)
    } catch {
      setMessage(t('camera.processFailed'))
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
    <CameraDialogShell open={open} title={title} closeLabel={t('camera.close')} onClose={close}>
      <CameraPreview
        videoRef={camera.video}
        facing={camera.facing}
        state={camera.state}
        showVideo={liveVisible}
        hidden={!liveVisible && view.kind !== 'review'}
        label={t('camera.preview')}
        startingText={t('camera.starting')}
        switchingText={t('camera.switching')}
      >
        {view.kind === 'review' ? (
          <img src={view.url} alt={t('camera.captured')} className="size-full object-contain" />
        ) : null}
      </CameraPreview>

      {view.kind === 'failed' || view.kind === 'upload' ? (
        <PictureFallback
          problem={view.problem ? t(`camera.problems.${view.problem}`) : null}
          chooseText={t('camera.chooseFile')}
          onPick={(file) => void pick(file)}
        />
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
            onClick={() => void start(camera.facing)}
          >
            {t('camera.tryAgain')}
          </Button>
        ) : null}
        {view.kind === 'live' ? (
          <>
            {camera.cameras > 1 ? (
              <Button
                variant="secondary"
                icon={<SwitchCamera aria-hidden="true" />}
                onClick={camera.switchCamera}
              >
                {t('camera.switch')}
              </Button>
            ) : null}
            <Button
              variant="secondary"
              icon={<ImageUp aria-hidden="true" />}
              onClick={() => {
                stop()
                setMode({ kind: 'upload' })
              }}
            >
              {t('camera.uploadInstead')}
            </Button>
            <Button icon={<CameraIcon aria-hidden="true" />} onClick={capture}>
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
    </CameraDialogShell>
  )
}

import { ImageUp, RefreshCw, SwitchCamera } from 'lucide-react'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { CameraDialogShell, CameraPreview, PictureFallback } from '@/components/camera/camera-parts'
import { useCamera } from '@/components/camera/use-camera'
import { Button } from '@/components/ui/button'
import { classifyScan } from '../lib/classify-scan'
import { loadQrReader, type QrReader } from '../lib/decoder'

/** A frame a few times a second: quick enough to feel instant, light on a phone's battery. */
export const SCAN_INTERVAL_MS = 250

type Message = 'notCircles' | 'noCodeInPhoto' | 'unreadablePhoto' | 'readerFailed'

export interface ScanDialogProps {
  open: boolean
  onClose(): void
}

/**
 * Scan a label or an invitation (issue 27, docs/decisions/0052 "Scanning"): the camera of the photo
 * dialog (components/camera) with a QR reader loaded on opening. A label of this app opens the item
 * (through /i/:code), an invitation the join page; anything else says so and scanning goes on. Choosing
 * a photo reads a still picture instead, for people without a camera or who denied it.
 */
export function ScanDialog({ open, onClose }: ScanDialogProps) {
  const { t } = useTranslation(['scan', 'items'])
  const navigate = useNavigate()
  const camera = useCamera()
  const { start, stop } = camera
  const [reader, setReader] = useState<QrReader | null>(null)
  const [readerFailed, setReaderFailed] = useState(false)
  const [choosing, setChoosing] = useState(false)
  const [message, setMessage] = useState<Message | null>(null)
  const [found, setFound] = useState(false)
  // The text last answered, so a foreign code held in front of the camera is not read out again and again.
  const lastText = useRef<string | null>(null)

  const loadReader = useCallback(() => {
    loadQrReader().then(
      (loaded) => {
        setReaderFailed(false)
        setReader(() => loaded)
      },
      () => setReaderFailed(true),
    )
  }, [])

  // ScanHost mounts the dialog for each opening, so every scan starts from a fresh state.
  useEffect(() => {
    if (!open) return
    loadReader()
    void start('environment')
    return stop
  }, [open, start, stop, loadReader])

  const close = useCallback(() => {
    stop()
    onClose()
  }, [stop, onClose])

  /** A code was read: go where it leads, or say it is none of ours. */
  const answer = useCallback(
    (text: string | null, fromPhoto: boolean) => {
      if (text === null) {
        if (fromPhoto) setMessage('noCodeInPhoto')
        return
      }
      const result = classifyScan(text, window.location.origin)
      if (result.kind === 'foreign') {
        if (fromPhoto || lastText.current !== text) setMessage('notCircles')
        lastText.current = text
        return
      }
      setFound(true)
      stop()
      onClose()
      void navigate(result.path)
    },
    [navigate, onClose, stop],
  )

  const live = camera.state.kind === 'live'
  // Read a frame a few times a second while the camera is live and the reader is there.
  useEffect(() => {
    if (!open || !live || !reader || choosing || found) return
    let cancelled = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const tick = async () => {
      const video = camera.video.current
      if (video && video.readyState >= 2 && video.videoWidth > 0) {
        const text = await reader.read(video).catch(() => null)
        if (cancelled) return
        answer(text, false)
      }
      if (!cancelled) timer = setTimeout(() => void tick(), SCAN_INTERVAL_MS)
    }
    timer = setTimeout(() => void tick(), SCAN_INTERVAL_MS)
    return () => {
      cancelled = true
      clearTimeout(timer)
    }
  }, [open, live, reader, choosing, found, camera.video, answer])

  const pick = async (file: File | undefined) => {
    if (!file) return
    setMessage(null)
    let activeReader = reader
    if (!activeReader) {
      try {
        const loaded = await loadQrReader()
        activeReader = loaded
        setReader(() => loaded)
      } catch {
        setReaderFailed(true)
        return
      }
    }
    let bitmap: ImageBitmap
    try {
      bitmap = await createImageBitmap(file)
    } catch {
      setMessage('unreadablePhoto')
      return
    }
    try {
      answer(await activeReader.read(bitmap).catch(() => null), true)
    } finally {
      bitmap.close()
    }
  }

  const state = camera.state
  const fallback = choosing || state.kind === 'failed' || (state.kind === 'off' && Boolean(state.problem))
  const problem = state.kind === 'failed' || state.kind === 'off' ? state.problem : undefined
  const showVideo = !fallback && (live || state.kind === 'starting' || state.kind === 'switching')
  const shown = readerFailed ? 'readerFailed' : message
  const notice = camera.notice ? t(`items:camera.${camera.notice}`) : null

  return (
    <CameraDialogShell
      open={open}
      title={t('scan:title')}
      closeLabel={t('items:camera.close')}
      onClose={close}
    >
      {!fallback ? <p className="text-sm text-fg-muted">{t('scan:hint')}</p> : null}
      <CameraPreview
        videoRef={camera.video}
        facing={camera.facing}
        state={camera.state}
        showVideo={showVideo}
        hidden={!showVideo}
        label={t('items:camera.preview')}
        startingText={t('items:camera.starting')}
        switchingText={t('items:camera.switching')}
      />
      {fallback ? (
        <PictureFallback
          problem={problem ? t(`items:camera.problems.${problem}`) : null}
          chooseText={t('scan:chooseFile')}
          onPick={(file) => void pick(file)}
        />
      ) : null}

      {/* Always in the page, so a screen reader hears each message as it comes. */}
      <p role="status" aria-live="polite" className={shown ? 'text-sm font-medium text-danger' : 'sr-only'}>
        {shown ? t(`scan:messages.${shown}`) : ''}
      </p>
      {notice ? <p className="text-sm text-danger">{notice}</p> : null}

      <div className="flex flex-wrap justify-end gap-2">
        {readerFailed ? (
          <Button variant="secondary" icon={<RefreshCw aria-hidden="true" />} onClick={loadReader}>
            {t('items:camera.tryAgain')}
          </Button>
        ) : null}
        {state.kind === 'failed' && !choosing ? (
          <Button
            variant="secondary"
            icon={<RefreshCw aria-hidden="true" />}
            onClick={() => void start(camera.facing)}
          >
            {t('items:camera.tryAgain')}
          </Button>
        ) : null}
        {live && !choosing ? (
          <>
            {camera.cameras > 1 ? (
              <Button
                variant="secondary"
                icon={<SwitchCamera aria-hidden="true" />}
                onClick={camera.switchCamera}
              >
                {t('items:camera.switch')}
              </Button>
            ) : null}
            <Button
              variant="secondary"
              icon={<ImageUp aria-hidden="true" />}
              onClick={() => {
                stop()
                setMessage(null)
                setChoosing(true)
              }}
            >
              {t('scan:choosePhoto')}
            </Button>
          </>
        ) : null}
      </div>
    </CameraDialogShell>
  )
}

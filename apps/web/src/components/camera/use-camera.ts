import { useCallback, useEffect, useRef, useState } from 'react'

/** Spec 001 §9: ideal 1280x720, at most 1920x1080, a 300 ms start delay. */
export const CAMERA = {
  idealWidth: 1280,
  idealHeight: 720,
  maxWidth: 1920,
  maxHeight: 1080,
  startDelayMs: 300,
}

export type Facing = 'user' | 'environment'
export type CameraProblem = 'denied' | 'notFound' | 'inUse' | 'unsupportedSettings' | 'generic' | 'noSupport'
/** Where the camera is: off (never started, stopped, or no camera API), starting, live, switching, failed. */
export type CameraState =
  | { kind: 'off'; problem?: CameraProblem }
  | { kind: 'starting' }
  | { kind: 'switching' }
  | { kind: 'live' }
  | { kind: 'failed'; problem: CameraProblem }
/** What went wrong while switching cameras, for the caller to word. */
export type CameraNotice = 'switchFailed' | 'switchingFailed'

export function problemOf(error: unknown): CameraProblem {
  const name = error instanceof DOMException ? error.name : ''
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied'
  if (name === 'NotFoundError' || name === 'DevicesNotFoundError') return 'notFound'
  if (name === 'NotReadableError' || name === 'TrackStartError') return 'inUse'
  if (name === 'OverconstrainedError' || name === 'ConstraintNotSatisfiedError') return 'unsupportedSettings'
  return 'generic'
}

export const hasCameraSupport = () =>
  typeof navigator !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia)

/**
 * The camera of the photo dialog (issue 23) and the scan dialog (issue 27): asks for the back camera
 * first (spec 001 §9's sizes and start delay), tells denial, no camera, a camera in use and the rest
 * apart, switches front/back where there are several (keeping the working one if the other fails), and
 * stops every track when stopped, closed or unmounted, also a stream that arrives after that.
 */
export function useCamera() {
  const video = useRef<HTMLVideoElement>(null)
  const stream = useRef<MediaStream | null>(null)
  const [state, setState] = useState<CameraState>({ kind: 'off' })
  const [facing, setFacing] = useState<Facing>('environment')
  const [cameras, setCameras] = useState(0)
  const [notice, setNotice] = useState<CameraNotice | null>(null)

  // Every start counts up; stopping counts up too, so a start still waiting for its stream knows it is
  // no longer wanted and stops the stream the moment it arrives (the dialog was closed meanwhile).
  const attempt = useRef(0)

  const releaseStream = useCallback(() => {
    stream.current?.getTracks().forEach((track) => track.stop())
    stream.current = null
  }, [])

  /** Stops the camera; the state is the caller's to set (a review, an upload, a closed dialog). */
  const stop = useCallback(() => {
    attempt.current++
    releaseStream()
  }, [releaseStream])

  const start = useCallback(
    async (wanted: Facing, switching = false) => {
      if (!hasCameraSupport()) {
        setState({ kind: 'off', problem: 'noSupport' })
        return
      }
      const mine = ++attempt.current
      const stillWanted = () => attempt.current === mine
      if (!switching) setNotice(null)
      setState({ kind: switching ? 'switching' : 'starting' })
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
        setState({ kind: 'live' })
      } catch (error) {
        if (!stillWanted()) return
        if (switching && stream.current) {
          // The other camera failed: keep the one that works.
          setNotice('switchFailed')
          setState({ kind: 'live' })
          return
        }
        releaseStream()
        if (switching) setNotice('switchingFailed')
        setState({ kind: 'failed', problem: problemOf(error) })
      }
    },
    [releaseStream],
  )

  useEffect(() => stop, [stop])

  return {
    video,
    /** The live stream, while there is one. */
    stream,
    state,
    setState,
    facing,
    cameras,
    notice,
    setNotice,
    start,
    stop,
    /** The other camera, keeping this one if it fails. */
    switchCamera: () => void start(facing === 'user' ? 'environment' : 'user', true),
  }
}

export type Camera = ReturnType<typeof useCamera>

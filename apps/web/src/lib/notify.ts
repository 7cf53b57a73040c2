import { TIMINGS } from '@circles/shared'
import type * as SonnerModule from 'sonner'
import type { ExternalToast } from 'sonner'

/**
 * Toasts with the spec's durations (000 §9). sonner (about 8 KB) comes with the first toast, not with
 * every screen's first load (issue 27, docs/decisions/0055): the first toast loads it, and the app's
 * Toaster (app/toaster-slot.tsx) mounts then; sonner replays the toasts created before it subscribed.
 * The ids are ours, so a toast can be dismissed while sonner is still on its way.
 */
type Sonner = typeof SonnerModule
type Kind = 'success' | 'info' | 'warning' | 'error'

let sonner: Promise<Sonner> | undefined
const listeners = new Set<() => void>()

function loadSonner(): Promise<Sonner> {
  if (!sonner) {
    sonner = import('sonner')
    // Without the chunk (a deploy replaced it, no network) the toast is lost; the next one tries again.
    sonner.catch(() => (sonner = undefined))
    for (const listener of listeners) listener()
  }
  return sonner
}

/** True once a toast was asked for: the Toaster is mounted from then on. */
export const toasterWanted = (): boolean => sonner !== undefined

export function subscribeToasterWanted(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

let counter = 0

function show(kind: Kind, message: string, options?: ExternalToast): string | number {
  const id = options?.id ?? `notice-${++counter}`
  loadSonner().then(
    ({ toast }) => toast[kind](message, { duration: TIMINGS.toast[kind], ...options, id }),
    () => undefined,
  )
  return id
}

export const notify = {
  success: (message: string, options?: ExternalToast) => show('success', message, options),
  info: (message: string, options?: ExternalToast) => show('info', message, options),
  warning: (message: string, options?: ExternalToast) => show('warning', message, options),
  error: (message: string, options?: ExternalToast) => show('error', message, options),
  dismiss: (id?: string | number) => {
    sonner?.then(
      ({ toast }) => toast.dismiss(id),
      () => undefined,
    )
  },
}

import { TIMINGS } from '@circles/shared'
import { toast, type ExternalToast } from 'sonner'

/** Toasts with the spec's durations (000 §9); the Toaster itself sits in the app providers. */
export const notify = {
  success: (message: string, options?: ExternalToast) =>
    toast.success(message, { duration: TIMINGS.toast.success, ...options }),
  info: (message: string, options?: ExternalToast) =>
    toast.info(message, { duration: TIMINGS.toast.info, ...options }),
  warning: (message: string, options?: ExternalToast) =>
    toast.warning(message, { duration: TIMINGS.toast.warning, ...options }),
  error: (message: string, options?: ExternalToast) =>
    toast.error(message, { duration: TIMINGS.toast.error, ...options }),
  dismiss: (id?: string | number) => toast.dismiss(id),
}

import { ZMessageResponse, type TContactRequest } from '@circles/shared'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'
import { api } from '@/lib/api-client'

/** POST /api/contact (spec 000 §7); the answer's message is not shown, the page has its own confirmation. */
export function sendContactMessage(message: TContactRequest) {
  return api.post('/contact', message, ZMessageResponse)
}

export function useSendContactMessage() {
  return useGuardedMutation({ mutationFn: sendContactMessage })
}

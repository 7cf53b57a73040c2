import { ZMessageResponse, type TContactRequest } from '@circles/shared'
import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

/** POST /api/contact (spec 000 §7); the answer's message is not shown, the page has its own confirmation. */
export function sendContactMessage(message: TContactRequest) {
  return api.post('/contact', message, ZMessageResponse)
}

export function useSendContactMessage() {
  return useMutation({ mutationFn: sendContactMessage })
}

import { type TAvatarResponse, ZAvatarResponse } from '@circles/shared'
import { useQueryClient } from '@tanstack/react-query'
import { API_BASE } from '@/lib/api-client'
import { getSession, updateSessionUser } from '@/lib/session'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'

/** Why an avatar upload failed: the server's answer (its message and key), or what happened on the way. */
export class AvatarUploadError extends Error {
  constructor(
    readonly reason: 'server' | 'network' | 'timeout' | 'failed',
    message: string = reason,
    readonly key?: string,
  ) {
    super(message)
  }
}

const TIMEOUT_MS = 120_000

/**
 * PUT /users/me/avatar as multipart (field `image`) through XMLHttpRequest, the one browser API that
 * reports upload progress (as an item's picture, features/items/api/upload-item-image.ts).
 */
export function uploadAvatar(file: File, onProgress: (percent: number) => void): Promise<TAvatarResponse> {
  return new Promise((resolve, reject) => {
    const { token } = getSession()
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', `${API_BASE}/users/me/avatar`)
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`)
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.timeout = TIMEOUT_MS
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100))
    }
    xhr.onload = () => {
      let body: unknown
      try {
        body = JSON.parse(xhr.responseText)
      } catch {
        body = undefined
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const parsed = ZAvatarResponse.safeParse(body)
        if (parsed.success) {
          onProgress(100)
          return resolve(parsed.data)
        }
        return reject(new AvatarUploadError('failed'))
      }
      const { message, key } = (body ?? {}) as { message?: unknown; key?: unknown }
      if (typeof message === 'string' && message) {
        return reject(new AvatarUploadError('server', message, typeof key === 'string' ? key : undefined))
      }
      reject(new AvatarUploadError('failed'))
    }
    xhr.onerror = () => reject(new AvatarUploadError('network'))
    xhr.ontimeout = () => reject(new AvatarUploadError('timeout'))
    const form = new FormData()
    form.append('image', file, file.name)
    xhr.send(form)
  })
}

/** Upload or replace; the session's user (the header's avatar) and the circles' members follow. */
export const useUploadAvatar = () => {
  const queryClient = useQueryClient()
  return useGuardedMutation({
    mutationKey: ['profile', 'avatar'],
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (percent: number) => void }) =>
      uploadAvatar(file, onProgress),
    onSuccess: ({ user }) => {
      updateSessionUser(user)
      void queryClient.invalidateQueries({ queryKey: ['circles'] })
    },
  })
}

import { API_BASE } from '@/lib/api-client'
import { getSession } from '@/lib/session'

/** Why an upload failed, as a key of the items namespace's `upload.errors` (spec 001 §8). */
export type UploadFailure =
  | { reason: 'noToken' | 'network' | 'timeout' | 'cancelled' | 'invalidResponse' | 'missingUrl' }
  /** The server's answer: its message and the message's key (issue 23), shown through `failureText`. */
  | { reason: 'server'; message: string; key?: string }
  | { reason: 'status'; status: number }

export class UploadError extends Error {
  constructor(readonly failure: UploadFailure) {
    super(failure.reason)
  }
}

export interface UploadOptions {
  /** 0–100, from the browser's upload progress events. */
  onProgress(percent: number): void
  signal?: AbortSignal
  timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 120_000

function serverAnswer(text: string): { message: string; key?: string } | undefined {
  try {
    const { message, key } = JSON.parse(text) as { message?: unknown; key?: unknown }
    if (typeof message !== 'string' || !message) return undefined
    return typeof key === 'string' ? { message, key } : { message }
  } catch {
    return undefined
  }
}

/** What parses a successful answer's body (a zod schema's safeParse). */
export interface AnswerSchema<T> {
  safeParse(body: unknown): { success: true; data: T } | { success: false }
}

/**
 * POST `path` (under /api) as multipart (field `image`) through XMLHttpRequest, the one browser API
 * that reports upload progress: an item's picture, a handover's condition photo (issue 28). Abortable
 * through `signal`; times out after two minutes.
 */
export function uploadPicture<T>(
  path: string,
  file: File,
  schema: AnswerSchema<T>,
  options: UploadOptions,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const fail = (failure: UploadFailure) => reject(new UploadError(failure))
    const { token } = getSession()
    if (!token) return fail({ reason: 'noToken' })
    if (options.signal?.aborted) return fail({ reason: 'cancelled' })

    const xhr = new XMLHttpRequest()
    xhr.open('POST', `${API_BASE}${path}`)
    xhr.setRequestHeader('Authorization', `Bearer ${token}`)
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress(Math.round((event.loaded / event.total) * 100))
    }
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        const answer = serverAnswer(xhr.responseText)
        return fail(answer ? { reason: 'server', ...answer } : { reason: 'status', status: xhr.status })
      }
      let body: unknown
      try {
        body = JSON.parse(xhr.responseText)
      } catch {
        return fail({ reason: 'invalidResponse' })
      }
      const parsed = schema.safeParse(body)
      if (!parsed.success) return fail({ reason: 'missingUrl' })
      options.onProgress(100)
      resolve(parsed.data)
    }
    xhr.onerror = () => fail({ reason: 'network' })
    xhr.ontimeout = () => fail({ reason: 'timeout' })
    xhr.onabort = () => fail({ reason: 'cancelled' })
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true })

    const form = new FormData()
    form.append('image', file, file.name)
    xhr.send(form)
  })
}

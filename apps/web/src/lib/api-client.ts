import { MESSAGES } from '@circles/shared'
import type { z } from 'zod/mini'
import { getSession, isTokenExpired, logout, logoutForRejectedToken } from '@/lib/session'
import { noteAnswer, noteRequestSent } from '@/lib/first-read'
import { reportNetworkFailure, reportServerAnswered } from '@/pwa/offline/online-status'

/** Every failed call throws this; `message` is what the user may see (spec 000 §8). */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  /** HTTP status; 0 when no answer arrived (network failure, expired token caught before sending). */
  readonly status: number
  readonly code: string | undefined
  /** The parsed answer body, e.g. `retryAfter` on a 429 or `emailVerified` on a 401. */
  readonly data: unknown
  /** The answer's `x-request-id`, the server log's `reqId` for it: shown in error states for support. */
  readonly requestId: string | undefined

  constructor(
    message: string,
    options: { status: number; code?: string; data?: unknown; cause?: unknown; requestId?: string },
  ) {
    super(message, { cause: options.cause })
    this.status = options.status
    this.code = options.code
    this.data = options.data
    this.requestId = options.requestId
  }
}

export interface RequestOptions {
  /** Keep the session on a 401 (the login call answers 401 for a wrong password, not a stale session). */
  skipLogoutOn401?: boolean
  signal?: AbortSignal
  headers?: Record<string, string>
  /** Answer the body as text, unparsed (e.g. a JSON-lines export). */
  text?: boolean
  /** Answer a file: its bytes and the name its Content-Disposition gives (e.g. the data export). */
  file?: boolean
  /** The browser's HTTP cache mode (ledger tiles skip it: they are kept only once checked). */
  cache?: RequestCache
}

/** A file an answer carries: its bytes, and its name when the server gave one. */
export interface DownloadedFile {
  blob: Blob
  fileName: string | null
}

/** The `filename` of a Content-Disposition header (plain or quoted). */
export function dispositionFileName(header: string | null): string | null {
  return /filename="?([^";]+)"?/i.exec(header ?? '')?.[1] ?? null
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
type Result<S> = S extends z.ZodMiniType ? z.output<S> : unknown

export const API_BASE = '/api'

/**
 * Where requests go: the browser's fetch; on the server, while it renders a screen with its data
 * (entry-server.tsx `renderScreen`), the server's own answer to the request.
 */
const browserFetch: typeof fetch = (input, init) => fetch(input, init)
let send = browserFetch

/** Server rendering only: `fetcher` answers the requests from now on; undefined puts fetch back. */
export function sendRequestsThrough(fetcher: typeof fetch | undefined): void {
  send = fetcher ?? browserFetch
}
const PATHS_WITHOUT_LOGOUT_ON_401 = new Set(['/users/login'])

function lastPathSegment(path: string): string {
  const withoutQuery = path.split(/[?#]/)[0] ?? ''
  return withoutQuery.split('/').filter(Boolean).pop() ?? ''
}

function parseBody(text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    // A proxy's HTML error page, for instance; still worth keeping for debugging.
    return text
  }
}

function field(data: unknown, key: string): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined
  const value = (data as Record<string, unknown>)[key]
  return typeof value === 'string' && value.length > 0 ? value : undefined
}

async function request<S extends z.ZodMiniType | undefined>(
  method: Method,
  path: string,
  body: unknown,
  schema: S,
  options: RequestOptions = {},
): Promise<Result<S>> {
  const { token } = getSession()
  if (token && isTokenExpired(token)) {
    void logout(MESSAGES.tokenExpired)
    throw new ApiError(MESSAGES.tokenExpired, { status: 0, code: 'TOKEN_EXPIRED' })
  }

  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  if (token) headers.Authorization = `Bearer ${token}`

  let response: Response
  noteRequestSent()
  try {
    response = await send(`${API_BASE}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
      ...(options.cache ? { cache: options.cache } : {}),
    })
  } catch (error) {
    // A cancelled query is not a failure to report; let the caller see the AbortError as is.
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    // fetch rejects with a TypeError when no answer came (offline, DNS, connection refused).
    if (error instanceof TypeError) reportNetworkFailure()
    const reason = error instanceof Error ? error.message : String(error)
    throw new ApiError(`Failed to ${method.toLowerCase()} ${lastPathSegment(path)}: ${reason}`, {
      status: 0,
      code: 'NETWORK_ERROR',
      cause: error,
    })
  }

  reportServerAnswered()
  noteAnswer(response.headers.get('date'))
  if (response.ok && options.file) {
    const file: DownloadedFile = {
      blob: await response.blob(),
      fileName: dispositionFileName(response.headers.get('content-disposition')),
    }
    return file as Result<S>
  }
  const text = await response.text()
  const data = parseBody(text)
  if (!response.ok) {
    const skipLogout = options.skipLogoutOn401 ?? PATHS_WITHOUT_LOGOUT_ON_401.has(path.split('?')[0] ?? '')
    // Without a token there is no session to end; a visitor's 401 is just an error.
    // Only a 401 for the token that is still the session's ends it: this request may have been sent
    // before a logout and a new login (here or in another tab), and its late answer must not end that.
    if (response.status === 401 && token && !skipLogout) void logoutForRejectedToken(token)
    throw new ApiError(field(data, 'message') ?? MESSAGES.somethingWentWrong, {
      status: response.status,
      code: field(data, 'code'),
      data,
      requestId: response.headers.get('x-request-id') ?? undefined,
    })
  }

  if (options.text) return text as Result<S>
  if (!schema) return data as Result<S>
  const parsed = schema.safeParse(data)
  if (!parsed.success) {
    // The contract is shared, so this means a server and client of different versions.
    throw new ApiError(MESSAGES.somethingWentWrong, {
      status: response.status,
      code: 'INVALID_RESPONSE',
      data,
      cause: parsed.error,
    })
  }
  return parsed.data as Result<S>
}

/**
 * JSON client for `/api`. Pass a schema from `@circles/shared` to get a typed, validated answer.
 * Sends `Authorization: Bearer <token>` when signed in; a 401 or an expired token ends the session.
 */
export const api = {
  get: <S extends z.ZodMiniType | undefined = undefined>(
    path: string,
    schema?: S,
    options?: RequestOptions,
  ) => request('GET', path, undefined, schema as S, options),
  post: <S extends z.ZodMiniType | undefined = undefined>(
    path: string,
    body?: unknown,
    schema?: S,
    options?: RequestOptions,
  ) => request('POST', path, body, schema as S, options),
  put: <S extends z.ZodMiniType | undefined = undefined>(
    path: string,
    body?: unknown,
    schema?: S,
    options?: RequestOptions,
  ) => request('PUT', path, body, schema as S, options),
  patch: <S extends z.ZodMiniType | undefined = undefined>(
    path: string,
    body?: unknown,
    schema?: S,
    options?: RequestOptions,
  ) => request('PATCH', path, body, schema as S, options),
  /** GET, answering the body as text. */
  text: (path: string, options?: RequestOptions) =>
    request('GET', path, undefined, undefined, { ...options, text: true }) as Promise<string>,
  /** GET, answering a file (bytes and name); a failure is an ApiError as for any call. */
  file: (path: string, options?: RequestOptions) =>
    request('GET', path, undefined, undefined, {
      ...options,
      file: true,
      headers: { Accept: '*/*', ...options?.headers },
    }) as Promise<DownloadedFile>,
  /** DELETE without a body: the path names what goes. */
  delete: <S extends z.ZodMiniType | undefined = undefined>(
    path: string,
    schema?: S,
    options?: RequestOptions,
  ) => request('DELETE', path, undefined, schema as S, options),
  /** DELETE with a JSON body (issue 27: a device's push endpoint, a capability URL kept out of the path). */
  deleteWith: <S extends z.ZodMiniType | undefined = undefined>(
    path: string,
    body: unknown,
    schema?: S,
    options?: RequestOptions,
  ) => request('DELETE', path, body, schema as S, options),
}

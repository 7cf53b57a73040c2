import type { FastifyBaseLogger } from 'fastify'
import webpush from 'web-push'
import type { Db } from '../../db/client'
import { type QueueWorker, startQueueWorker } from '../queue-worker'
import { hostIsPublic } from './public-address'
import { type PushJob, claimNextPush, forgetDevice, markPushNotSent, markPushSent } from './queue'
import type { VapidKeys } from './vapid'

export type PushWorker = QueueWorker

const MAX_ATTEMPTS = 8
const MAX_BACKOFF_MS = 60 * 60_000
/** A notice older than a day is of no use: the push service may drop it after that. */
const TTL_SECONDS = 24 * 60 * 60

export function pushBackoffMs(attempts: number, baseMs: number) {
  return Math.min(MAX_BACKOFF_MS, baseMs * 2 ** Math.max(0, attempts - 1))
}

/** What one delivery came to; never the endpoint (a capability URL) nor the keys. */
type Outcome = { ok: true } | { ok: false; gone: boolean; error: string }

/**
 * One request to the push service: the payload encrypted for the device (RFC 8291, aes128gcm) and the
 * VAPID JWT (RFC 8292) by the web-push library, the request itself with fetch and a deadline. web-push's
 * own sender speaks https only, and we want the deadline as an AbortSignal.
 */
async function deliver(
  job: PushJob,
  vapid: VapidKeys & { subject: string },
  timeoutMs: number,
  privateHostsToo: boolean,
): Promise<Outcome> {
  if (!privateHostsToo) {
    const isPublic = await hostIsPublic(new URL(job.endpoint).hostname)
    if (isPublic === false)
      return { ok: false, gone: true, error: 'the endpoint is not on the public internet' }
    if (isPublic === undefined)
      return { ok: false, gone: false, error: "the endpoint's host does not resolve" }
  }
  let details: webpush.RequestDetails
  try {
    details = webpush.generateRequestDetails(
      { endpoint: job.endpoint, keys: { p256dh: job.p256dh, auth: job.auth } },
      job.payload,
      { vapidDetails: vapid, TTL: TTL_SECONDS, contentEncoding: 'aes128gcm' },
    )
  } catch {
    // Keys no message can be encrypted for: this device can never be reached.
    return { ok: false, gone: true, error: 'the device keys are unusable' }
  }
  const headers = Object.fromEntries(
    Object.entries(details.headers).map(([name, value]) => [name, String(value)]),
  )
  let response: Response
  try {
    response = await fetch(job.endpoint, {
      method: 'POST',
      headers,
      body: details.body as Buffer,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    })
  } catch (error) {
    const name = (error as Error).name
    return {
      ok: false,
      gone: false,
      error: name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : `request failed (${name})`,
    }
  }
  await response.body?.cancel()
  if (response.ok) return { ok: true }
  return {
    ok: false,
    gone: response.status === 404 || response.status === 410,
    error: `push service answered ${response.status}`,
  }
}

/**
 * Sends the push queue one message at a time after commit (docs/decisions/0053): claimed with a lease,
 * a deadline per request, 404/410 deletes the device, other failures retry with backoff. Logs name the
 * message and subscription ids only.
 */
export function startPushWorker(opts: {
  db: Db
  log: FastifyBaseLogger
  vapid: VapidKeys
  subject: string
  intervalMs: number
  timeoutMs: number
  /**
   * Post to loopback and private hosts too: only for a server that itself runs on loopback (development
   * and the tests' push service); otherwise a push goes to public addresses only (public-address.ts).
   */
  privateHostsToo: boolean
}): PushWorker {
  const { db, log, intervalMs, timeoutMs } = opts
  const vapid = { ...opts.vapid, subject: opts.subject }
  const lease = Math.max(60_000, 3 * timeoutMs)
  async function send(job: PushJob) {
    const outcome = await deliver(job, vapid, timeoutMs, opts.privateHostsToo)
    const ids = { pushId: job.id, subscriptionId: job.subscriptionId, attempts: job.attempts }
    if (outcome.ok) {
      await markPushSent(db, job)
      return
    }
    if (outcome.gone) {
      await forgetDevice(db, job.subscriptionId)
      log.info(ids, 'push subscription expired; removed')
      return
    }
    const retryIn = job.attempts >= MAX_ATTEMPTS ? null : pushBackoffMs(job.attempts, intervalMs)
    await markPushNotSent(db, job, retryIn, outcome.error)
    log.warn({ ...ids, retryInMs: retryIn, reason: outcome.error }, 'push delivery failed')
  }

  return startQueueWorker({
    name: 'push worker',
    log,
    intervalMs,
    claim: () => claimNextPush(db, lease),
    handle: send,
  })
}

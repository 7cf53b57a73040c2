import { hasAnalyticsConsent, subscribeConsentRecord } from '@/lib/consent-record'

export type AnalyticsProps = Record<string, string | number | boolean>

/** Names of the events we send; page views go through pageView. */
export type AnalyticsEventName = 'circle_created' | 'circle_joined' | 'circle_invite_sent' | 'circle_left'

/** What a real analytics service plugs in (spec 000 §4: nothing is sent without consent). */
export interface AnalyticsProvider {
  /** A path only, never a query string: ours carry tokens (reset, verification, invitations). */
  pageView(path: string): void
  event(name: AnalyticsEventName, props?: AnalyticsProps): void
  /** Forget everything stored on this device (cookies beyond the consent tool's autoClear, storage). */
  reset?(): void
}

/** The default: no analytics service is configured, so nothing leaves the browser. */
export const noopAnalyticsProvider: AnalyticsProvider = {
  pageView: () => undefined,
  event: () => undefined,
}

let provider: AnalyticsProvider = noopAnalyticsProvider
let allowed = hasAnalyticsConsent()
let currentPath: string | null = null

export function setAnalyticsProvider(next: AnalyticsProvider): void {
  provider = next
}

/** Strips query and fragment, whatever the caller passed. */
function pathOnly(path: string): string {
  return path.split(/[?#]/)[0] || '/'
}

/** Called on every route change; forwarded only with analytics consent. */
export function trackPageView(path: string): void {
  currentPath = pathOnly(path)
  if (hasAnalyticsConsent()) provider.pageView(currentPath)
}

/** For product events such as creating or joining a circle; forwarded only with analytics consent. */
export function trackEvent(name: AnalyticsEventName, props?: AnalyticsProps): void {
  if (hasAnalyticsConsent()) provider.event(name, props)
}

// A new yes counts the page the visitor is on; a no (first or withdrawn) makes the provider forget this
// device. The consent tool's autoClear removes the cookies; reset() is for what it cannot see.
subscribeConsentRecord(() => {
  const now = hasAnalyticsConsent()
  if (now && !allowed && currentPath) provider.pageView(currentPath)
  if (!now) provider.reset?.()
  allowed = now
})

import { useSyncExternalStore } from 'react'
import { runtimeConfig } from '@/lib/runtime-config'

/** What the page shows before the browser has read the server's runtime config (and when prerendering). */
export const DEFAULT_CONTACT_EMAIL = 'hello@circles.example'

const noSubscription = () => () => undefined

/**
 * The contact address from the server's runtime config. Prerendering and hydration use the default
 * (no document to read there, and the first client render must match the HTML); React then re-renders
 * with the configured address.
 */
export function useContactEmail(): string {
  return useSyncExternalStore(
    noSubscription,
    () => runtimeConfig().contactEmail,
    () => DEFAULT_CONTACT_EMAIL,
  )
}

import { useSyncExternalStore } from 'react'

const noSubscription = () => () => undefined

/**
 * False in the prerendered HTML and while it hydrates, true once React runs the page in the browser.
 * The contact form is sent by script only: before that, submitting would put the message into the URL.
 */
export function useInteractive(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  )
}

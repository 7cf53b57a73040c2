import { useSyncExternalStore } from 'react'

const subscribeNever = () => () => undefined

/**
 * False while React hydrates prerendered HTML (and on the server), true from then on, and at once on a
 * client-side navigation. Anything the prerendered page cannot know (query, storage) waits for it.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  )
}

import { useEffect } from 'react'

let lastServerTitle = ''

/** The title of the page last rendered on the server (prerender), read by entry-server.tsx. */
export const serverTitle = {
  reset: () => {
    lastServerTitle = ''
  },
  read: () => lastServerTitle,
}

function recordServerTitle(title: string) {
  lastServerTitle = title
}

/** Sets the tab title while the calling page is shown (screen readers announce it on navigation). */
export function useDocumentTitle(title: string): void {
  // Effects do not run when prerendering, so the server render records the title instead.
  if (typeof document === 'undefined') recordServerTitle(title)
  useEffect(() => {
    document.title = title
  }, [title])
}

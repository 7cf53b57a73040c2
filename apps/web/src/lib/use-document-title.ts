import { useEffect } from 'react'

/** Sets the tab title while the calling page is shown (screen readers announce it on navigation). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title
  }, [title])
}

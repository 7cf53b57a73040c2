import type { NavigateFunction } from 'react-router'

let lent: NavigateFunction | null = null

/** Navigation for code outside React (the real-time toasts' links), once the app's routes have rendered. */
export function navigateTo(href: string): void {
  void lent?.(href)
}

/** AppRoutes lends its router's navigate while it is mounted; returns the cleanup. */
export function lendNavigate(navigate: NavigateFunction): () => void {
  lent = navigate
  return () => {
    if (lent === navigate) lent = null
  }
}

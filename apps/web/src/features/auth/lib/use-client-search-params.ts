import { useSearchParams } from 'react-router'
import { useHydrated } from '@/lib/use-hydrated'

/**
 * The query string, or null while the page is still the prerendered HTML being hydrated. Public pages
 * are prerendered without any query, so the first client render must not depend on it either; once
 * hydrated (or on any client-side navigation) this is the real query at once.
 */
export function useClientSearchParams(): URLSearchParams | null {
  const [params] = useSearchParams()
  return useHydrated() ? params : null
}

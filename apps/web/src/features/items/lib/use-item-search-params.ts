import { useCallback, useMemo } from 'react'
import { useSearchParams } from 'react-router'
import { KEEP_SCROLL } from '@/lib/scroll-restoration'
import { type ItemSearchState, readSearch, writeSearch } from './item-search'

/** What the search writes; any other parameter of the page (`from`, `add`) stays as it is. */
const SEARCH_KEYS = ['q', 'circle', 'holder', 'state', 'sort']

/**
 * The list's search state, kept in the page's query string: a link, a reload and Back bring it back.
 * A change is a new history entry (Back undoes it), except while typing (`replace`).
 */
export function useItemSearchParams() {
  const [params, setParams] = useSearchParams()
  const state = useMemo(() => readSearch(params), [params])
  const update = useCallback(
    (next: ItemSearchState, { replace = false }: { replace?: boolean } = {}) =>
      setParams(
        (current) => {
          const written = writeSearch(next)
          for (const [key, value] of current) if (!SEARCH_KEYS.includes(key)) written.append(key, value)
          return written
        },
        // The list stays where the reader is.
        { replace, state: KEEP_SCROLL },
      ),
    [setParams],
  )
  return [state, update] as const
}

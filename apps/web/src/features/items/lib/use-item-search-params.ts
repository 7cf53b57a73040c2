import { useCallback, useMemo } from 'react'
import { useSearchParams } from 'react-router'
import { type ItemSearchState, readSearch, writeSearch } from './item-search'

/**
 * The list's search state, kept in the page's query string: a link, a reload and Back bring it back.
 * A change is a new history entry (Back undoes it), except while typing (`replace`).
 */
export function useItemSearchParams() {
  const [params, setParams] = useSearchParams()
  const state = useMemo(() => readSearch(params), [params])
  const update = useCallback(
    (next: ItemSearchState, { replace = false }: { replace?: boolean } = {}) =>
      setParams(writeSearch(next), { replace, preventScrollReset: true }),
    [setParams],
  )
  return [state, update] as const
}

import {
  ITEM_SEARCH_TEXT_MAX,
  ITEM_SORTS,
  ITEM_STATES,
  type TItemSort,
  type TItemState,
} from '@circles/shared'

/**
 * The items lists' search, filters and order as they stand in the page's URL (issue 23,
 * docs/decisions/0031): /items?q=drill&state=pending&sort=name. The names are the API's; a value the
 * page does not know is dropped (the list shows as if it were absent), so an old or edited link never
 * ends in an error page. Defaults are left out of the URL.
 */
export interface ItemSearchState {
  q: string
  /** A circle id (only on /items; a circle's page is its own filter). */
  circle: string
  /**
   * Whose items: '' is the page's default (the holder on /items, everyone on a circle's page), 'me',
   * 'all' (everyone, on /items) or a member's id.
   */
  holder: string
  state: TItemState | ''
  sort: TItemSort
}

export const DEFAULT_SORT: TItemSort = 'newest'
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const isState = (v: string): v is TItemState => (ITEM_STATES as readonly string[]).includes(v)
const isSort = (v: string): v is TItemSort => (ITEM_SORTS as readonly string[]).includes(v)

export function readSearch(params: URLSearchParams): ItemSearchState {
  const circle = params.get('circle') ?? ''
  const holder = params.get('holder') ?? ''
  const state = params.get('state') ?? ''
  const sort = params.get('sort') ?? ''
  return {
    q: (params.get('q') ?? '').slice(0, ITEM_SEARCH_TEXT_MAX),
    circle: UUID.test(circle) ? circle : '',
    holder: holder === 'me' || holder === 'all' || UUID.test(holder) ? holder : '',
    state: isState(state) ? state : '',
    sort: isSort(sort) ? sort : DEFAULT_SORT,
  }
}

/** The page's URL query for a state: only what differs from the defaults, in a fixed order. */
export function writeSearch(state: ItemSearchState): URLSearchParams {
  const params = new URLSearchParams()
  if (state.q.trim()) params.set('q', state.q)
  if (state.circle) params.set('circle', state.circle)
  if (state.holder) params.set('holder', state.holder)
  if (state.state) params.set('state', state.state)
  if (state.sort !== DEFAULT_SORT) params.set('sort', state.sort)
  return params
}

/** Whether anything narrows the list (the order does not): decides 'No items match' over the page's own empty state. */
export function isFiltered(state: ItemSearchState): boolean {
  return Boolean(state.q.trim() || state.circle || state.holder || state.state)
}

/** The state without filters, the order kept: what 'Clear filters' goes to. */
export function cleared(state: ItemSearchState): ItemSearchState {
  return { q: '', circle: '', holder: '', state: '', sort: state.sort }
}

/**
 * The API's query for a page of results. On /items the page's default holder is the caller ('me':
 * the spec's list of one's own items) and 'all' lifts it; on a circle's page the default is everyone.
 */
export function apiQuery(
  state: ItemSearchState,
  page: { scope: 'mine' | 'circle'; limit: number; offset: number },
): string {
  const params = new URLSearchParams()
  const q = state.q.trim()
  if (q) params.set('q', q)
  if (state.circle && page.scope === 'mine') params.set('circle', state.circle)
  const holder = state.holder || (page.scope === 'mine' ? 'me' : '')
  if (holder && holder !== 'all') params.set('holder', holder)
  if (state.state) params.set('state', state.state)
  params.set('sort', state.sort)
  params.set('limit', String(page.limit))
  if (page.offset) params.set('offset', String(page.offset))
  return params.toString()
}

import type { QueryClient } from '@tanstack/react-query'
import {
  dashboardCirclesQuery,
  dashboardStatsQuery,
  recentActivitiesQuery,
} from '@/features/dashboard/api/dashboard'
import { inboxQuery } from '@/features/dashboard/api/inbox'
import { getCircleQueryOptions, isCircleId } from '@/features/circles/api/get-circle'
import { getCirclesQueryOptions } from '@/features/circles/api/get-circles'
import { circleMembersQuery, itemHandoversQuery } from '@/features/items/api/handovers'
import {
  circleInfoQuery,
  itemQuery,
  itemSearchQuery,
  myCirclesQuery,
  ownershipStatusQuery,
} from '@/features/items/api/items'
import { readSearch } from '@/features/items/lib/item-search'
import { blocksQuery } from '@/features/ledger/api/blocks'
import { ledgerKeysQuery } from '@/lib/ledger-verification/log-api'
import { asksQuery, itemAsksQuery, loansQuery } from '@/lib/lending/api'

/** Where a screen is: its path's parameters, its query string, who is signed in. */
export interface ScreenPlace {
  params: Record<string, string | undefined>
  search: URLSearchParams
  userId: string
}

/**
 * The first requests of a signed-in screen, started on a first load once its code is here (main.tsx), so
 * the requests go out while React renders the page instead of after it has rendered (issue 27, 0056);
 * on the server, the requests a screen rendered with its data is rendered from (docs/decisions/0068).
 * Each uses the query options the page itself uses: the page finds the request under way, or its
 * answer, and asks nothing twice. What a page asks only after an answer (the handover page's members)
 * goes out as soon as that answer is here.
 */
export type ScreenData = (queryClient: QueryClient, place: ScreenPlace) => Promise<unknown>[]

const itemScreen: ScreenData = (client, { params: { itemId = '' } }) => [
  client.prefetchQuery(itemQuery(itemId)),
  client.prefetchQuery(ownershipStatusQuery(itemId)),
  client.prefetchQuery(itemHandoversQuery(itemId)),
  client.prefetchQuery(itemAsksQuery(itemId)),
]

export const screenData = {
  dashboard: (client, { userId }) => [
    client.prefetchQuery(recentActivitiesQuery()),
    client.prefetchQuery(dashboardStatsQuery()),
    client.prefetchQuery(dashboardCirclesQuery()),
    client.prefetchQuery(inboxQuery(userId)),
    client.prefetchQuery(loansQuery('borrowed')),
    client.prefetchQuery(loansQuery('lent')),
    client.prefetchQuery(asksQuery('of-me')),
  ],
  circles: (client) => [client.prefetchQuery(getCirclesQueryOptions())],
  circle: (client, { params: { id = '' } }) =>
    isCircleId(id) ? [client.prefetchQuery(getCircleQueryOptions(id))] : [],
  items: (client, { search }) => [
    client.prefetchInfiniteQuery(itemSearchQuery({ mine: true }, readSearch(search))),
    client.prefetchQuery(myCirclesQuery()),
  ],
  circleItems: (client, { params: { circleId = '' }, search }) =>
    circleId
      ? [
          client.prefetchQuery(circleInfoQuery(circleId)),
          client.prefetchInfiniteQuery(itemSearchQuery({ circleId }, readSearch(search))),
        ]
      : [],
  item: itemScreen,
  // The receiver picker's members, once the item names its circle (not for an item whose owner left it).
  handover: (client, place) => [
    ...itemScreen(client, place),
    client
      .fetchQuery(itemQuery(place.params.itemId ?? ''))
      .then((item) =>
        item.ownerLeftCircle ? undefined : client.prefetchQuery(circleMembersQuery(item.circleId)),
      )
      .catch(() => undefined),
  ],
  // The verifier keys too: the device check of the shown blocks needs them first (lib/ledger-verification).
  ledger: (client, { params: { circleId, itemId } }) => [
    client.prefetchQuery(blocksQuery({ circleId, itemId })),
    client.prefetchQuery(ledgerKeysQuery),
  ],
} satisfies Record<string, ScreenData>

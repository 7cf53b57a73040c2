import {
  type TBorrowRequest,
  type TConditionInput,
  type TLoan,
  ZBorrowRequestListResponse,
  ZBorrowRequestResponse,
  ZLoanExtensionResponse,
  ZLoanListResponse,
  ZLoanResponse,
} from '@circles/shared'
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'

/**
 * The lending API (docs/decisions/0047, 0050) for every screen that shows loans and asks: the item page,
 * the item lists, the dashboard and /loans. Its queries live under `['items']`, so the socket's item and
 * handover events and every item change refetch them with the items (lib/realtime).
 */
export const lendingKeys = {
  all: ['items', 'lending'] as const,
  loans: (role: LoanRole, status: 'active' | 'all') => ['items', 'lending', 'loans', role, status] as const,
  loan: (id: string) => ['items', 'lending', 'loan', id] as const,
  asks: (role: AskRole) => ['items', 'lending', 'asks', role] as const,
  itemAsks: (itemId: string) => ['items', 'lending', 'item-asks', itemId] as const,
}

export type LoanRole = 'borrowed' | 'lent'
export type AskRole = 'mine' | 'of-me'

const enc = encodeURIComponent

/** GET /loans?role=…: my loans as borrower or lender (ACTIVE ones unless `all`). */
export const loansQuery = (role: LoanRole, status: 'active' | 'all' = 'active') =>
  queryOptions({
    queryKey: lendingKeys.loans(role, status),
    queryFn: ({ signal }): Promise<TLoan[]> =>
      api.get(`/loans?role=${role}&status=${status}`, ZLoanListResponse, { signal }).then((a) => a.loans),
  })
export const useLoans = (role: LoanRole, status: 'active' | 'all' = 'active') =>
  useQuery(loansQuery(role, status))

/** GET /loans/:id: the item page's loan with its pending return and extension. */
export const useLoan = (id: string | undefined) =>
  useQuery({
    enabled: Boolean(id),
    queryKey: lendingKeys.loan(id ?? ''),
    queryFn: ({ signal }) =>
      api.get(`/loans/${enc(id ?? '')}`, ZLoanResponse, { signal }).then((a) => a.loan),
  })

/** GET /borrow-requests?role=…: my open asks, or the open asks for my items. */
export const asksQuery = (role: AskRole) =>
  queryOptions({
    queryKey: lendingKeys.asks(role),
    queryFn: ({ signal }): Promise<TBorrowRequest[]> =>
      api
        .get(`/borrow-requests?role=${role}`, ZBorrowRequestListResponse, { signal })
        .then((a) => a.borrowRequests),
  })
export const useAsks = (role: AskRole) => useQuery(asksQuery(role))

/** GET /items/:id/borrow-requests: the item's queue, in order of asking. */
export const itemAsksQuery = (itemId: string) =>
  queryOptions({
    queryKey: lendingKeys.itemAsks(itemId),
    queryFn: ({ signal }) =>
      api
        .get(`/items/${enc(itemId)}/borrow-requests`, ZBorrowRequestListResponse, { signal })
        .then((a) => a.borrowRequests),
  })
export const useItemAsks = (itemId: string) => useQuery(itemAsksQuery(itemId))

/** After every change, refused ones too: the item, its lists, the loans and the dashboard. */
function useRefresh() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['items'] }),
      queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
    ])
}

/** POST /loans/:id/return: the borrower starts a return, or the lender records one made in person. */
export function useStartReturn() {
  const onSettled = useRefresh()
  return useGuardedMutation({
    mutationKey: ['loans', 'return'],
    // Issue 28: the condition it comes back in, when the person recorded any.
    mutationFn: ({
      loanId,
      comment,
      condition,
    }: {
      loanId: string
      comment: string
      condition?: TConditionInput
    }) =>
      api.post(
        `/loans/${enc(loanId)}/return`,
        condition ? { comment, condition } : { comment },
        ZLoanResponse,
      ),
    onSettled,
  })
}

/** POST /loans/:id/extensions: the borrower asks for a later date. */
export function useRequestExtension() {
  const onSettled = useRefresh()
  return useGuardedMutation({
    mutationKey: ['loans', 'extension'],
    mutationFn: ({ loanId, ...body }: { loanId: string; dueAt: string; message: string }) =>
      api.post(`/loans/${enc(loanId)}/extensions`, body, ZLoanExtensionResponse),
    onSettled,
  })
}

/** PUT /loans/:id/extensions/:extensionId: the lender accepts or declines. */
export function useAnswerExtension() {
  const onSettled = useRefresh()
  return useGuardedMutation({
    mutationFn: ({
      loanId,
      extensionId,
      status,
    }: {
      loanId: string
      extensionId: string
      status: 'ACCEPTED' | 'DECLINED'
    }) => api.put(`/loans/${enc(loanId)}/extensions/${enc(extensionId)}`, { status }, ZLoanExtensionResponse),
    onSettled,
  })
}

/** DELETE /loans/:id/extensions/:extensionId: the borrower withdraws the wish. */
export function useWithdrawExtension() {
  const onSettled = useRefresh()
  return useGuardedMutation({
    mutationFn: ({ loanId, extensionId }: { loanId: string; extensionId: string }) =>
      api.delete(`/loans/${enc(loanId)}/extensions/${enc(extensionId)}`),
    onSettled,
  })
}

/** PATCH /loans/:id: the lender changes the return date at once. */
export function useChangeDueAt() {
  const onSettled = useRefresh()
  return useGuardedMutation({
    mutationFn: ({ loanId, dueAt }: { loanId: string; dueAt: string }) =>
      api.patch(`/loans/${enc(loanId)}`, { dueAt }, ZLoanResponse),
    onSettled,
  })
}

/** POST /items/:id/borrow-requests: a member asks to borrow. */
export function useAskToBorrow() {
  const onSettled = useRefresh()
  return useGuardedMutation({
    mutationKey: ['borrow-requests', 'create'],
    mutationFn: ({
      itemId,
      ...body
    }: {
      itemId: string
      wishedFrom: string | null
      wishedUntil: string
      message: string
    }) => api.post(`/items/${enc(itemId)}/borrow-requests`, body, ZBorrowRequestResponse),
    onSettled,
  })
}

/** PUT /borrow-requests/:id: the owner accepts (a LOAN handover request) or declines. */
export function useAnswerAsk() {
  const onSettled = useRefresh()
  return useGuardedMutation({
    mutationFn: ({
      id,
      ...body
    }:
      | {
          id: string
          status: 'ACCEPTED'
          dueAt: string
          requesterComment: string
          /** Issue 28: the owner's condition photos and note with the loan offered. */
          condition?: TConditionInput
        }
      | { id: string; status: 'DECLINED'; reason: string }) =>
      api.put(`/borrow-requests/${enc(id)}`, body, ZBorrowRequestResponse),
    onSettled,
  })
}

/** DELETE /borrow-requests/:id: the asker withdraws. */
export function useWithdrawAsk() {
  const onSettled = useRefresh()
  return useGuardedMutation({
    mutationFn: (id: string) => api.delete(`/borrow-requests/${enc(id)}`),
    onSettled,
  })
}

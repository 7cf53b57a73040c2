import type { THandover, TItem } from '@circles/shared'
import type { SignedIn } from './circles'
import type { TestApp } from './test-app'

export async function createItem(t: TestApp, who: SignedIn, circleId: string, name = 'Cordless drill') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/items',
    headers: who.auth,
    payload: { name, circleId },
  })
  if (res.statusCode !== 201) throw new Error(`create item: ${res.statusCode} ${res.body}`)
  return res.json().item as TItem
}

export function requestHandover(t: TestApp, who: SignedIn, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/handovers', headers: who.auth, payload })
}

export function answerHandover(
  t: TestApp,
  who: SignedIn,
  id: string,
  status: 'CONFIRMED' | 'REJECTED',
  receiverComment?: string,
) {
  return t.app.inject({
    method: 'PUT',
    url: `/api/handovers/${id}/status`,
    headers: who.auth,
    payload: { status, receiverComment },
  })
}

/** A PENDING handover of the item from `from` to `to`. */
export async function pendingHandover(
  t: TestApp,
  from: SignedIn,
  to: SignedIn,
  itemId: string,
  extra: Record<string, unknown> = {},
): Promise<THandover> {
  const res = await requestHandover(t, from, { itemId, receiverId: to.user.id, ...extra })
  if (res.statusCode !== 201) throw new Error(`request handover: ${res.statusCode} ${res.body}`)
  return res.json().handover
}

/** Hands the item over and confirms it: one block. */
export async function handOver(
  t: TestApp,
  from: SignedIn,
  to: SignedIn,
  itemId: string,
  extra: Record<string, unknown> = {},
): Promise<THandover> {
  const pending = await pendingHandover(t, from, to, itemId, extra)
  const res = await answerHandover(t, to, pending.id, 'CONFIRMED')
  if (res.statusCode !== 200) throw new Error(`confirm: ${res.statusCode} ${res.body}`)
  return res.json().handover
}

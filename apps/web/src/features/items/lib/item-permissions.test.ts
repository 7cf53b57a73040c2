import type { TItem } from '@circles/shared'
import { describe, expect, it } from 'vitest'
import { canDeleteItem, canEditItem, itemActions } from './item-permissions'

const HOLDER = '11111111-1111-4111-8111-111111111111'
const ADMIN = '22222222-2222-4222-8222-222222222222'
const MEMBER = '33333333-3333-4333-8333-333333333333'

const item = (overrides: Partial<TItem> = {}): TItem => ({
  id: '44444444-4444-4444-8444-444444444444',
  name: 'Ladder',
  code: 'BADD2R34',
  description: null,
  imageUrl: null,
  thumbnailUrl: null,
  circleId: '55555555-5555-4555-8555-555555555555',
  ownerId: HOLDER,
  ownership: 'COMPLETE',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  owner: { name: 'Hanna Holder' },
  circle: { name: 'Corner Shop', adminId: ADMIN },
  ownerLeftCircle: false,
  hasPendingHandovers: false,
  locked: false,
  lending: { loan: null, queueLength: 0 },
  ...overrides,
})

describe('who may change an item (spec 001 §6)', () => {
  it('edit: the holder and the admin, while it is not locked, not pending and its holder still in', () => {
    expect(canEditItem(item(), HOLDER)).toBe(true)
    expect(canEditItem(item(), ADMIN)).toBe(true)
    expect(canEditItem(item(), MEMBER)).toBe(false)
    expect(canEditItem(item(), undefined)).toBe(false)
    expect(canEditItem(item({ locked: true }), HOLDER)).toBe(false)
    expect(canEditItem(item({ locked: true }), ADMIN)).toBe(false)
    expect(canEditItem(item({ hasPendingHandovers: true }), HOLDER)).toBe(false)
    expect(canEditItem(item({ ownerLeftCircle: true }), HOLDER)).toBe(false)
  })

  it('delete: only the holder with complete ownership, and not while a handover is pending', () => {
    expect(canDeleteItem(item(), HOLDER)).toBe(true)
    expect(canDeleteItem(item(), ADMIN)).toBe(false)
    expect(canDeleteItem(item({ ownership: 'PARTIAL' }), HOLDER)).toBe(false)
    expect(canDeleteItem(item({ hasPendingHandovers: true }), HOLDER)).toBe(false)
  })
})

describe('what the item page offers, and the true reason for what it does not (issue 23)', () => {
  const reasons = (i: TItem, me: string) => {
    const a = itemActions(i, me)
    const why = (s: { allowed: unknown; reason?: string }) => (s.allowed === false ? s.reason : s.allowed)
    return [why(a.handOver), why(a.edit), why(a.delete)]
  }

  it('agrees with canEditItem and canDeleteItem', () => {
    for (const i of [
      item(),
      item({ locked: true }),
      item({ hasPendingHandovers: true }),
      item({ ownership: 'PARTIAL' }),
    ]) {
      for (const me of [HOLDER, ADMIN, MEMBER]) {
        expect(itemActions(i, me).edit.allowed).toBe(canEditItem(i, me))
        expect(itemActions(i, me).delete.allowed).toBe(canDeleteItem(i, me))
      }
    }
  })

  it('names the reason: someone else holds it, locked, pending, partial', () => {
    expect(reasons(item(), HOLDER)).toEqual([true, true, true])
    expect(reasons(item(), MEMBER)).toEqual(['handOverNotHolder', 'editNotAllowed', 'deleteNotHolder'])
    expect(reasons(item({ locked: true }), MEMBER)).toEqual([
      'handOverNotHolder',
      'editLocked',
      'deleteNotHolder',
    ])
    expect(reasons(item(), ADMIN)).toEqual(['handOverNotHolder', true, 'deleteNotHolder'])
    expect(reasons(item({ ownership: 'PARTIAL' }), HOLDER)).toEqual([true, true, 'partialNote'])
    expect(reasons(item({ hasPendingHandovers: true }), HOLDER)).toEqual([
      'view',
      'editPending',
      'deletePending',
    ])
    expect(reasons(item({ hasPendingHandovers: true }), MEMBER)).toEqual([
      'view',
      'editNotAllowed',
      'deleteNotHolder',
    ])
  })
})

// Issue 26 (ADR 0047): the owner stays the owner while it is lent out, but does not hand it over, edit
// or delete it until it is back; the true reason says so.
describe('an item on loan', () => {
  const lent = item({
    lending: {
      loan: {
        id: '66666666-6666-4666-8666-666666666666',
        borrower: { id: MEMBER, name: 'Ben' },
        dueAt: '2026-12-03T23:59:00.000Z',
        overdue: false,
        recalled: false,
      },
      queueLength: 0,
    },
  })

  it('is not handed over, edited or deleted by its owner, for the reason onLoan', () => {
    expect(itemActions(lent, HOLDER)).toEqual({
      handOver: { allowed: false, reason: 'onLoan' },
      edit: { allowed: false, reason: 'onLoan' },
      delete: { allowed: false, reason: 'onLoan' },
    })
    expect(canEditItem(lent, HOLDER)).toBe(false)
    expect(canDeleteItem(lent, HOLDER)).toBe(false)
  })

  it('gives the borrower the reasons any non-holder gets', () => {
    expect(itemActions(lent, MEMBER).handOver).toEqual({ allowed: false, reason: 'handOverNotHolder' })
    expect(itemActions(lent, MEMBER).delete).toEqual({ allowed: false, reason: 'deleteNotHolder' })
  })
})

import type { TBorrowRequest, TLoan } from '@circles/shared'
import { TEST_CIRCLE_ID, TEST_ITEM_ID } from './items'
import { testUser } from './tokens'

export const BEN = { id: '44444444-4444-4444-8444-444444444444', name: 'Ben Ortiz' }
export const CARA = { id: '66666666-6666-4666-8666-666666666666', name: 'Cara Diaz' }
export const LOAN_ID = '77777777-7777-4777-8777-777777777777'
export const EXTENSION_ID = '88888888-8888-4888-8888-888888888888'
export const ASK_ID = '99999999-9999-4999-8999-999999999999'

/** The test user's drill, lent to Ben until 3 Dec 2026 at the end of the day (local time). */
export const testLoan = (extra: Partial<TLoan> = {}): TLoan => ({
  id: LOAN_ID,
  itemId: TEST_ITEM_ID,
  circleId: TEST_CIRCLE_ID,
  item: { name: 'Cordless drill', thumbnailUrl: null },
  circle: { name: 'Linden Street' },
  lender: { id: testUser.id, name: testUser.name },
  borrower: BEN,
  status: 'ACTIVE',
  dueAt: new Date(2026, 11, 3, 23, 59).toISOString(),
  overdue: false,
  startedAt: '2026-11-20T10:00:00.000Z',
  returnedAt: null,
  recalledAt: null,
  recallReason: null,
  pendingReturn: null,
  pendingExtension: null,
  ...extra,
})

/** Cara's ask to borrow the test user's drill, first in line. */
export const testAsk = (extra: Partial<TBorrowRequest> = {}): TBorrowRequest => ({
  id: ASK_ID,
  itemId: TEST_ITEM_ID,
  circleId: TEST_CIRCLE_ID,
  item: { name: 'Cordless drill', thumbnailUrl: null },
  asker: CARA,
  owner: { id: testUser.id, name: testUser.name },
  wishedFrom: null,
  wishedUntil: new Date(2026, 11, 10, 23, 59).toISOString(),
  message: 'For the shelves',
  status: 'WAITING',
  declineReason: null,
  position: 1,
  handoverId: null,
  createdAt: '2026-11-21T10:00:00.000Z',
  answeredAt: null,
  ...extra,
})

/** The item's `lending` for a loan. */
export const lendingOf = (loan: TLoan, queueLength = 0) => ({
  loan: {
    id: loan.id,
    borrower: loan.borrower,
    dueAt: loan.dueAt,
    overdue: loan.overdue,
    recalled: loan.recalledAt !== null,
  },
  queueLength,
})

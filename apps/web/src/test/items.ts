import type { TItem } from '@circles/shared'
import { testUser } from './tokens'

export const TEST_CIRCLE_ID = '11111111-1111-4111-8111-111111111111'
export const TEST_ITEM_ID = '33333333-3333-4333-8333-333333333333'

/** An item of the test user's in 'Linden Street', complete and free to hand over; `extra` changes it. */
export const testItem = (extra: Partial<TItem> = {}): TItem => ({
  id: TEST_ITEM_ID,
  name: 'Cordless drill',
  code: '7K3M9QXR',
  description: null,
  imageUrl: null,
  thumbnailUrl: null,
  circleId: TEST_CIRCLE_ID,
  ownerId: testUser.id,
  ownership: 'COMPLETE',
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  owner: { name: testUser.name },
  circle: { name: 'Linden Street', adminId: testUser.id },
  ownerLeftCircle: false,
  hasPendingHandovers: false,
  locked: false,
  lending: { loan: null, queueLength: 0 },
  ...extra,
})

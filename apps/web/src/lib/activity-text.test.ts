import type { TActivity } from '@circles/shared'
import i18n from 'i18next'
import { beforeAll, describe, expect, it } from 'vitest'
import { activityHref, activityText } from '@/lib/activity-text'
import { initI18n, setLanguage } from '@/lib/i18n'

beforeAll(async () => {
  await initI18n('en')
})

const item = { id: '66666666-6666-4666-8666-666666666666', name: 'Tent' }
const circle = { id: '11111111-1111-4111-8111-111111111111', name: 'Linden Street' }

// Issue 24: a deleted person's name is '' in every answer; the feed reads it as 'Deleted member'.
describe('activityText with a deleted person', () => {
  it('names them "Deleted member" in English and "Gelöschtes Mitglied" in German', async () => {
    const moved: TActivity = {
      id: '99999999-9999-4999-8999-999999999999',
      type: 'AUTO_TRANSFER',
      timestamp: new Date(0).toISOString(),
      title: '',
      data: {
        item,
        sender: { name: '' },
        receiver: { name: 'Ida' },
        circleId: circle.id,
        handoverId: null,
        reason: 'LEFT',
      },
    }
    const added: TActivity = {
      id: '88888888-8888-4888-8888-888888888888',
      type: 'NEW_ITEM',
      timestamp: new Date(0).toISOString(),
      title: '',
      data: { id: item.id, name: 'Tent', owner: { name: '' }, circle },
    }
    const invited: TActivity = {
      id: '77777777-7777-4777-8777-777777777777',
      type: 'CIRCLE_INVITATION',
      timestamp: new Date(0).toISOString(),
      title: '',
      data: { circle, admin: { name: '' } },
    }
    expect(activityText(i18n.t, moved)).toContain('Deleted member')
    expect(activityText(i18n.t, added)).toContain('Deleted member')
    // An invitation's deleted inviter reads as the spec's fallback.
    expect(activityText(i18n.t, invited)).toContain('Administrator')
    await setLanguage('de')
    expect(activityText(i18n.t, moved)).toContain('Gelöschtes Mitglied')
    await setLanguage('en')
  })
})

// Issue 26: the server's parts add lending entries; until the web words each, the feed shows them.
describe('activityText and activityHref for a type without its own words', () => {
  const lent = {
    id: '55555555-5555-4555-8555-555555555555',
    type: 'LOAN_REMINDER',
    timestamp: new Date(0).toISOString(),
    title: 'Tent is due back tomorrow',
    data: { item, lender: { name: 'Ida' }, dueAt: new Date(0).toISOString() },
  } as unknown as TActivity

  it("shows the server's summary and links to the item", async () => {
    await setLanguage('en')
    expect(activityText(i18n.t, lent)).toBe('Tent is due back tomorrow')
    expect(activityHref(lent)).toBe(`/items/${item.id}`)
  })

  it('falls back to the dashboard when the entry names no item', () => {
    const other = { ...lent, data: {} } as unknown as TActivity
    expect(activityHref(other)).toBe('/dashboard')
    expect(activityText(i18n.t, other)).toBe('Tent is due back tomorrow')
  })
})

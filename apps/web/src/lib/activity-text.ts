import type { TActivity } from '@circles/shared'
import type { TFunction } from 'i18next'
import { i18n } from '@/lib/i18n'
import { personName } from '@/lib/person-name'

/** Where an activity entry leads (spec 000 §2): the item, or for an invitation the circle. */
export function activityHref(activity: TActivity): string {
  switch (activity.type) {
    case 'NEW_ITEM':
      return `/items/${activity.data.id}`
    case 'CIRCLE_INVITATION':
    case 'REMOVED_FROM_CIRCLE':
      return `/circles/${activity.data.circle.id}`
    default:
      return `/items/${activity.data.item.id}`
  }
}

/** A request's entry says what became of it: `activity.PENDING_HANDOVER_REJECTED` and the like. */
function outcomeKey(activity: TActivity) {
  if (activity.type !== 'PENDING_HANDOVER') return `activity.${activity.type}` as const
  const status = activity.handoverStatus
  if (!status || status === 'PENDING') return 'activity.PENDING_HANDOVER' as const
  return `activity.PENDING_HANDOVER_${status}` as const
}

/** One line in the user's language, from the entry's type and data (the `title` is English only). */
export function activityText(t: TFunction, activity: TActivity): string {
  const key = `activity.${activity.type}` as const
  switch (activity.type) {
    case 'NEW_ITEM':
      return t(key, {
        ns: 'common',
        owner: personName(activity.data.owner.name),
        item: activity.data.name,
        circle: activity.data.circle.name,
      })
    case 'CIRCLE_INVITATION':
      return t(key, {
        ns: 'common',
        admin: activity.data.admin?.name || t('activity.administrator', { ns: 'common' }),
        circle: activity.data.circle.name,
      })
    case 'REMOVED_FROM_CIRCLE':
      return t(key, {
        ns: 'common',
        admin: personName(activity.data.admin.name),
        circle: activity.data.circle.name,
      })
    case 'LOAN_DUE_SOON':
    case 'LOAN_DUE_TODAY':
    case 'LOAN_OVERDUE':
    case 'LOAN_OVERDUE_LENDER':
      // Issue 26: a loan reminder; the date in the reader's language and time zone.
      return t(key, {
        ns: 'common',
        item: activity.data.item.name,
        lender: personName(activity.data.lender.name),
        borrower: personName(activity.data.borrower.name),
        date: new Intl.DateTimeFormat(i18n.language, {
          dateStyle: 'medium',
          timeStyle: 'short',
        }).format(new Date(activity.data.dueAt)),
      })
    case 'AUTO_TRANSFER':
      // Since issue 23 the entry says why; older entries did not know, and keep the plain words.
      return t(activity.data.reason ? (`activity.AUTO_TRANSFER_${activity.data.reason}` as const) : key, {
        ns: 'common',
        sender: personName(activity.data.sender.name),
        receiver: personName(activity.data.receiver.name),
        item: activity.data.item.name,
      })
    default:
      // A request answered or cancelled since no longer reads as open (docs/decisions/0029).
      return t(outcomeKey(activity), {
        ns: 'common',
        sender: personName(activity.data.sender.name),
        receiver: personName(activity.data.receiver.name),
        item: activity.data.item.name,
      })
  }
}

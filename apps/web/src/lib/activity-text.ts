import type { TActivity } from '@circles/shared'
import type { TFunction } from 'i18next'
import { i18n } from '@/lib/i18n'
import { personName } from '@/lib/person-name'
import { dateFormat } from '@/lib/intl-formats'

/** Where an activity entry leads (spec 000 §2): the item, or for an invitation the circle. */
export function activityHref(activity: TActivity): string {
  switch (activity.type) {
    case 'NEW_ITEM':
      return `/items/${activity.data.id}`
    case 'CIRCLE_INVITATION':
    case 'REMOVED_FROM_CIRCLE':
      return `/circles/${activity.data.circle.id}`
    default: {
      // Issue 26's lending entries and any type this app does not know yet: the item they are about.
      const data = activity.data as { item?: { id?: string }; itemId?: string }
      const itemId = data.item?.id ?? data.itemId
      return itemId ? `/items/${itemId}` : '/dashboard'
    }
  }
}

type HandoverLike = { sender: { name: string }; receiver: { name: string }; item: { name: string } }
const isHandoverLike = (data: unknown): data is HandoverLike => {
  const d = data as Partial<HandoverLike> | null
  return Boolean(
    d?.sender?.name !== undefined && d.receiver?.name !== undefined && d.item?.name !== undefined,
  )
}

/** A request's entry says what became of it: `activity.PENDING_HANDOVER_REJECTED` and the like. */
function outcomeKey(activity: Extract<TActivity, { type: 'PENDING_HANDOVER' | 'CONFIRMED_HANDOVER' }>) {
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
    case 'LOAN_STARTED':
    case 'LOAN_RETURN_REQUESTED':
    case 'LOAN_RETURNED':
    case 'LOAN_EXTENSION_REQUESTED':
    case 'LOAN_EXTENSION_ANSWERED':
    case 'LOAN_DUE_CHANGED':
    case 'LOAN_RECALLED': {
      // Issue 26: the variant says who started a return, whether a wish was accepted, who left.
      const d = activity.data
      const loanKey =
        activity.type === 'LOAN_RETURN_REQUESTED' && d.startedBy === 'LENDER'
          ? 'activity.LOAN_RETURN_REQUESTED_LENDER'
          : activity.type === 'LOAN_EXTENSION_ANSWERED' && !d.accepted
            ? 'activity.LOAN_EXTENSION_ANSWERED_DECLINED'
            : activity.type === 'LOAN_RECALLED' && d.departed === 'LENDER'
              ? 'activity.LOAN_RECALLED_LENDER'
              : key
      return t(loanKey, {
        ns: 'common',
        lender: personName(d.lender.name),
        borrower: personName(d.borrower.name),
        item: d.item.name,
        date: d.dueAt ? dateFormat(i18n.language, { dateStyle: 'medium' }).format(new Date(d.dueAt)) : '',
      })
    }
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
        date: dateFormat(i18n.language, {
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
    case 'BORROW_REQUESTED':
    case 'BORROW_DECLINED':
    case 'BORROW_OFFERED':
      // Asks to borrow (issue 26, docs/decisions/0048).
      return t(key, {
        ns: 'common',
        asker: personName(activity.data.asker.name),
        owner: personName(activity.data.owner.name),
        item: activity.data.item.name,
      })
    case 'PENDING_HANDOVER':
    case 'CONFIRMED_HANDOVER':
      // A request answered or cancelled since no longer reads as open (docs/decisions/0029).
      return t(outcomeKey(activity), {
        ns: 'common',
        sender: personName(activity.data.sender.name),
        receiver: personName(activity.data.receiver.name),
        item: activity.data.item.name,
      })
    default:
      return genericText(t, activity as { type: string; title: string; data: unknown })
  }
}

/**
 * An entry of a type without its own words here (issue 26's lending entries, added by the server's
 * parts): its own key in `activity.<TYPE>` when the locale has one, with the usual names; else the
 * server's English summary.
 */
function genericText(t: TFunction, activity: { type: string; title: string; data: unknown }): string {
  const names = isHandoverLike(activity.data)
    ? {
        sender: personName(activity.data.sender.name),
        receiver: personName(activity.data.receiver.name),
        item: activity.data.item.name,
      }
    : {}
  const translate = t as unknown as (key: string, options: Record<string, unknown>) => string
  return translate(`activity.${activity.type}`, { ns: 'common', defaultValue: activity.title, ...names })
}

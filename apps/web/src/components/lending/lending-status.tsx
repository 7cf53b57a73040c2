import type { TItemLending, TLoan } from '@circles/shared'
import { Clock, CircleCheck, TriangleAlert, Undo2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { cn } from '@/lib/class-names'
import { formatDue } from '@/lib/lending/dates'
import { personName } from '@/lib/person-name'

/**
 * The item's lending status in one line (issue 26): 'On loan to Ben until 3 Dec', 'Overdue since 3 Dec',
 * 'To be returned by Ben (left the circle)' or 'Available', with 'N waiting' when members queue.
 * `loan` (the full loan, when fetched) adds why a recalled loan was recalled.
 */
export function LendingStatus({
  lending,
  loan,
  className,
}: {
  lending: TItemLending
  loan?: TLoan | undefined
  className?: string
}) {
  const { t, i18n } = useTranslation('loans')
  const language = i18n.resolvedLanguage ?? i18n.language
  const out = lending.loan
  let icon = <CircleCheck aria-hidden="true" className="size-4 shrink-0 text-success" />
  let text = t('status.available')
  let warn = false
  if (out) {
    const name = personName(out.borrower.name)
    const date = formatDue(out.dueAt, language)
    if (out.recalled) {
      warn = true
      icon = <Undo2 aria-hidden="true" className="size-4 shrink-0" />
      text =
        loan?.recallReason === 'REMOVED'
          ? t('status.recalledRemoved', { name })
          : t('status.recalledLeft', { name })
    } else if (out.overdue) {
      warn = true
      icon = <TriangleAlert aria-hidden="true" className="size-4 shrink-0" />
      text = t('status.overdue', { name, date })
    } else {
      icon = <Clock aria-hidden="true" className="size-4 shrink-0 text-info" />
      text = t('status.onLoan', { name, date })
    }
  }
  return (
    <p
      className={cn(
        'flex flex-wrap items-center gap-x-2 gap-y-1 text-sm font-medium',
        warn ? 'text-warning' : 'text-fg',
        className,
      )}
    >
      {icon}
      <span>{text}</span>
      {lending.queueLength > 0 ? (
        <span className="font-normal text-fg-muted">
          · {t('status.waiting', { count: lending.queueLength })}
        </span>
      ) : null}
    </p>
  )
}

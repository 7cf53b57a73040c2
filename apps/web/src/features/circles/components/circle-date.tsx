import { useTranslation } from 'react-i18next'
import { describeDate, formatShortDate } from '../lib/dates'

/** "Joined 3 days ago" / "Joined Mar 12, 2025" (spec 001 §9), with the full date on hover. */
export function CircleDate({ iso, kind }: { iso: string; kind: 'joined' | 'created' }) {
  const { t, i18n } = useTranslation('circles')
  const language = i18n.resolvedLanguage ?? i18n.language
  const described = describeDate(iso, language)
  const text =
    described.kind === 'relative'
      ? t(kind === 'joined' ? 'dates.joinedRelative' : 'dates.createdRelative', { when: described.text })
      : t(kind === 'joined' ? 'dates.joinedOn' : 'dates.createdOn', { date: described.text })
  return (
    <time dateTime={iso} title={described.kind === 'relative' ? formatShortDate(iso, language) : undefined}>
      {text}
    </time>
  )
}

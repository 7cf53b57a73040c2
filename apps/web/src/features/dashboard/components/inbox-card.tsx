import { MESSAGES, type THandoverAnswerInput, TIMINGS } from '@circles/shared'
import type { UseQueryResult } from '@tanstack/react-query'
import { CircleCheckBig } from 'lucide-react'
import { Suspense, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PartLoader } from '@/components/part-loader'
import { PrivateImage } from '@/components/private-image'
import { Alert } from '@/components/ui/alert'
import { Card, CardTitle } from '@/components/ui/card'
import { lazyPart } from '@/lib/lazy-part'
import { failureMessage, translateServerError } from '@/lib/server-errors'
import { type InboxEntry, useAnswerFromInbox } from '../api/inbox'
import { personName } from '@/lib/person-name'

/**
 * The answer form with its condition photos (issue 28), loaded when a request waits for the viewer:
 * the dashboard's first load does not carry it (most visits have nothing to answer).
 */
const HandoverAnswer = lazyPart('handover-answer', () =>
  import('@/components/handover-answer').then((m) => m.HandoverAnswer),
)

type Outcome = { tone: 'success' | 'error'; text: string }

function HandoverEntry({ entry, onOutcome }: { entry: InboxEntry; onOutcome: (outcome: Outcome) => void }) {
  const { t } = useTranslation('dashboard')
  const { t: tl } = useTranslation('loans')
  const answer = useAnswerFromInbox()
  const { handover } = entry
  const headingId = `inbox-${entry.id}`
  // The answer's promise, not mutate's callbacks: the live update of our own answer can drop this entry
  // from the list (and unmount it) before the answer arrives, and react-query never calls an unmounted
  // component's callbacks, so the banner would not appear.
  const respond = (
    status: 'CONFIRMED' | 'REJECTED',
    receiverComment: string,
    condition: THandoverAnswerInput['condition'],
  ) =>
    answer.mutateAsync({ id: handover.id, status, receiverComment, condition }).then(
      () =>
        onOutcome({
          tone: 'success',
          text: translateServerError(
            status === 'CONFIRMED' ? MESSAGES.handoverConfirmed : MESSAGES.handoverRejected,
          ),
        }),
      (error: unknown) => {
        onOutcome({ tone: 'error', text: failureMessage(error, t('inbox.answerFailed')) })
        throw error
      },
    )
  return (
    <li aria-labelledby={headingId} className="flex flex-col gap-3 py-4 first:pt-1 last:pb-1">
      <div className="flex items-center gap-3">
        <PrivateImage
          url={handover.item.thumbnailUrl}
          alt=""
          className="size-12 shrink-0 rounded-md border border-border"
        />
        <h3 id={headingId} className="min-w-0 text-sm font-medium break-words text-fg">
          {handover.kind === 'LOAN'
            ? tl('inbox.loan', { sender: personName(handover.sender.name) })
            : handover.kind === 'RETURN'
              ? tl('inbox.return', { sender: personName(handover.sender.name) })
              : t('inbox.handover', { sender: personName(handover.sender.name) })}{' '}
          <Link to={`/items/${handover.itemId}`} className="text-accent-text underline underline-offset-2">
            {handover.item.name}
          </Link>
        </h3>
      </div>
      <Suspense fallback={<PartLoader />}>
        <HandoverAnswer handover={handover} busy={answer.isPending} onAnswer={respond} />
      </Suspense>
    </li>
  )
}

/**
 * 'Waiting for you' (issue 23): what needs this user's answer, answered right here. Invitations are
 * links in an email (docs/decisions/0029), so they are not listed; loan requests join as a new kind.
 */
export function InboxCard({ query }: { query: UseQueryResult<InboxEntry[]> }) {
  const { t } = useTranslation('dashboard')
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  useEffect(() => {
    // A success clears itself like every success banner (spec 001 §4); an error stays.
    if (outcome?.tone !== 'success') return
    const timer = setTimeout(() => setOutcome(null), TIMINGS.successBannerMs)
    return () => clearTimeout(timer)
  }, [outcome])
  let body
  if (query.isPending) {
    body = (
      <div role="status" className="py-2">
        <span className="sr-only">{t('inbox.loading')}</span>
        <span aria-hidden="true" className="block h-5 w-3/4 animate-pulse rounded-sm bg-surface-2" />
      </div>
    )
  } else if (query.isError) {
    body = <p className="py-2 text-sm text-fg-muted">{t('inbox.unavailable')}</p>
  } else if (query.data.length === 0) {
    body = (
      <p className="flex items-center gap-2 py-2 text-sm text-fg-muted">
        <CircleCheckBig aria-hidden="true" className="size-4 shrink-0 text-success" />
        {t('inbox.empty')}
      </p>
    )
  } else {
    body = (
      <ul aria-label={t('inbox.title')} className="flex flex-col divide-y divide-border">
        {query.data.map((entry) => (
          <HandoverEntry key={entry.id} entry={entry} onOutcome={setOutcome} />
        ))}
      </ul>
    )
  }
  return (
    <Card className="flex flex-col gap-3 p-5 sm:p-6">
      <CardTitle>{t('inbox.title')}</CardTitle>
      {outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}
      {body}
    </Card>
  )
}

import { LIMITS, type TBorrowRequest, type TItem } from '@circles/shared'
import { HandHelping, RotateCw } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { type DueValue, DueFields } from '@/components/lending/due-fields'
import { ConditionEditor } from '@/components/condition/condition-editor'
import { useConditionPhotos } from '@/components/condition/use-condition-photos'
import { FormDialog } from '@/components/lending/form-dialog'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Spinner } from '@/components/ui/spinner'
import { useAnswerAsk, useAskToBorrow, useItemAsks, useWithdrawAsk } from '@/lib/lending/api'
import {
  DEFAULT_LOAN_DAYS,
  dateInDays,
  dueAtFrom,
  END_OF_DAY,
  formatDue,
  localDateTime,
  wishedOrDefault,
  isoWithOffset,
} from '@/lib/lending/dates'
import { personName } from '@/lib/person-name'
import { failureMessage } from '@/lib/server-errors'
import { MessageField, OutcomeAlert } from './loan-actions'
import { useOutcome } from './use-outcome'

const isOpen = (ask: TBorrowRequest) => ask.status === 'WAITING' || ask.status === 'OFFERED'

type Dialog =
  { kind: 'ask' } | { kind: 'accept'; ask: TBorrowRequest } | { kind: 'decline'; ask: TBorrowRequest }

/**
 * Asks to borrow on the item page (issue 26). A member who does not own it asks (wished period and a
 * message) or withdraws, and sees their place in line; the owner sees the queue in order of asking and
 * accepts (a loan request with the wished date prefilled) or declines with an optional reason.
 */
export function BorrowQueue({ item, viewerId }: { item: TItem; viewerId: string | undefined }) {
  const { t, i18n } = useTranslation('loans')
  const language = i18n.resolvedLanguage ?? i18n.language
  const asks = useItemAsks(item.id)
  const askToBorrow = useAskToBorrow()
  const answer = useAnswerAsk()
  const withdraw = useWithdrawAsk()
  const [outcome, setOutcome] = useOutcome()
  const [dialog, setDialog] = useState<Dialog | null>(null)
  const [dialogError, setDialogError] = useState<string | null>(null)
  const [from, setFrom] = useState('')
  const [due, setDue] = useState<DueValue>({ date: '', time: END_OF_DAY })
  const [dueError, setDueError] = useState<string>()
  const [text, setText] = useState('')
  // Issue 28: the condition the owner lends it in (photos and a note with the offer).
  const photos = useConditionPhotos()
  const [conditionNote, setConditionNote] = useState('')

  const isOwner = item.ownerId === viewerId
  const isBorrower = item.lending.loan?.borrower.id === viewerId
  if (isBorrower) return null

  const open = (next: Dialog) => {
    setDialog(next)
    setDialogError(null)
    setDueError(undefined)
    setText('')
    setFrom('')
    if (next.kind === 'accept') {
      setDue(wishedOrDefault(next.ask.wishedUntil))
    } else {
      setDue({ date: dateInDays(DEFAULT_LOAN_DAYS), time: END_OF_DAY })
    }
  }
  const close = () => setDialog(null)
  const failed = (error: Error) => setDialogError(failureMessage(error, t('ask.failed')))
  const succeeded = (message: string) => () => {
    setDialog(null)
    setOutcome({ tone: 'success', text: message })
  }
  const pickedDue = () => {
    const picked = dueAtFrom(due.date, due.time)
    if ('error' in picked) {
      setDueError(t(`due.${picked.error}`))
      return null
    }
    return picked.dueAt
  }

  const submit = () => {
    if (!dialog) return
    if (dialog.kind === 'decline') {
      answer.mutate(
        { id: dialog.ask.id, status: 'DECLINED', reason: text },
        {
          onSuccess: succeeded(t('ask.declined', { name: personName(dialog.ask.asker.name) })),
          onError: failed,
        },
      )
      return
    }
    const dueAt = pickedDue()
    if (!dueAt) return
    if (dialog.kind === 'accept') {
      const note = conditionNote.trim()
      const condition =
        photos.photoIds.length || note ? { photoIds: photos.photoIds, note: note || null } : undefined
      answer.mutate(
        { id: dialog.ask.id, status: 'ACCEPTED', dueAt, requesterComment: text, condition },
        {
          onSuccess: () => {
            // Attached now: the editor forgets them without deleting.
            photos.reset()
            setConditionNote('')
            succeeded(t('ask.accepted', { name: personName(dialog.ask.asker.name) }))()
          },
          onError: failed,
        },
      )
      return
    }
    const start = from ? localDateTime(from, '00:00') : null
    askToBorrow.mutate(
      { itemId: item.id, wishedFrom: start ? isoWithOffset(start) : null, wishedUntil: dueAt, message: text },
      { onSuccess: succeeded(t('ask.sent', { name: personName(item.owner.name) })), onError: failed },
    )
  }

  const conditionWaiting = photos.uploading
    ? t('condition.waitForUploads')
    : photos.failed
      ? t('condition.fixFailed')
      : null

  let body
  if (asks.isPending) {
    body = <Spinner label={t('ask.loading')} />
  } else if (asks.isError) {
    body = (
      <Alert
        tone="error"
        action={
          <Button
            variant="secondary"
            size="sm"
            icon={<RotateCw aria-hidden="true" />}
            onClick={() => void asks.refetch()}
          >
            {t('retry')}
          </Button>
        }
      >
        {failureMessage(asks.error, t('ask.loadFailed'))}
      </Alert>
    )
  } else if (isOwner) {
    const queue = asks.data.filter(isOpen)
    body =
      queue.length === 0 ? (
        <p className="text-sm text-fg-muted">{t('ask.noneYet')}</p>
      ) : (
        <ol className="flex flex-col divide-y divide-border" aria-label={t('ask.queueTitle')}>
          {queue.map((ask) => (
            <li key={ask.id} className="flex flex-col gap-2 py-3 first:pt-0 last:pb-0">
              <p className="text-sm">
                <span className="font-medium">
                  {ask.position ? `${ask.position}. ` : ''}
                  {personName(ask.asker.name)}
                </span>{' '}
                <span className="text-fg-muted">
                  {ask.wishedFrom
                    ? t('ask.wishedPeriod', {
                        from: formatDue(ask.wishedFrom, language),
                        until: formatDue(ask.wishedUntil, language),
                      })
                    : t('ask.wishedUntil', { date: formatDue(ask.wishedUntil, language) })}
                </span>
              </p>
              {ask.message ? <p className="text-sm break-words text-fg-muted">“{ask.message}”</p> : null}
              {ask.status === 'OFFERED' ? (
                <p className="text-sm text-info">{t('ask.offered', { name: personName(ask.asker.name) })}</p>
              ) : (
                <div className="flex flex-wrap gap-2">
                  {item.lending.loan ? null : (
                    <Button size="sm" needsServer onClick={() => open({ kind: 'accept', ask })}>
                      {t('ask.accept')}
                    </Button>
                  )}
                  <Button
                    size="sm"
                    variant="secondary"
                    needsServer
                    onClick={() => open({ kind: 'decline', ask })}
                  >
                    {t('ask.decline')}
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ol>
      )
  } else {
    const mine = asks.data.find((ask) => ask.asker.id === viewerId && isOpen(ask))
    body = mine ? (
      <div className="flex flex-col gap-3">
        <p className="text-sm font-medium">
          {mine.status === 'OFFERED'
            ? t('ask.offeredToMe', { name: personName(item.owner.name) })
            : mine.position
              ? t('ask.position', { count: mine.position, ordinal: true })
              : t('ask.waiting')}
        </p>
        <p className="text-sm text-fg-muted">
          {t('ask.wishedUntil', { date: formatDue(mine.wishedUntil, language) })}
        </p>
        <Button
          variant="secondary"
          className="w-full"
          loading={withdraw.isPending}
          onClick={() =>
            withdraw.mutate(mine.id, {
              onSuccess: () => setOutcome({ tone: 'success', text: t('ask.withdrawn') }),
              onError: (error) => setOutcome({ tone: 'error', text: failureMessage(error, t('ask.failed')) }),
            })
          }
        >
          {t('ask.withdraw')}
        </Button>
      </div>
    ) : (
      <Button
        className="w-full"
        needsServer
        icon={<HandHelping aria-hidden="true" />}
        onClick={() => open({ kind: 'ask' })}
      >
        {t('ask.askToBorrow')}
      </Button>
    )
  }

  const pending = askToBorrow.isPending || answer.isPending
  const asker = dialog && dialog.kind !== 'ask' ? personName(dialog.ask.asker.name) : ''
  return (
    <section
      aria-labelledby="item-asks"
      className="flex flex-col gap-3 rounded-lg border border-border bg-surface p-5 shadow-sm"
    >
      <h2 id="item-asks" className="font-semibold tracking-tight">
        {isOwner ? t('ask.queueTitle') : t('ask.title')}
      </h2>
      {outcome ? <OutcomeAlert outcome={outcome} /> : null}
      {body}
      <FormDialog
        open={dialog !== null}
        title={
          dialog?.kind === 'accept'
            ? t('ask.acceptTitle', { name: asker })
            : dialog?.kind === 'decline'
              ? t('ask.declineTitle', { name: asker })
              : t('ask.askTitle', { item: item.name })
        }
        description={
          dialog?.kind === 'accept'
            ? t('ask.acceptBody', { name: asker })
            : dialog?.kind === 'decline'
              ? t('ask.declineBody', { name: asker })
              : t('ask.askBody', { name: personName(item.owner.name) })
        }
        submitLabel={
          dialog?.kind === 'accept'
            ? t('ask.lend')
            : dialog?.kind === 'decline'
              ? t('ask.decline')
              : t('ask.send')
        }
        cancelLabel={t('dialog.cancel')}
        tone={dialog?.kind === 'decline' ? 'danger' : 'primary'}
        pending={pending}
        submitDisabled={dialog?.kind === 'accept' && conditionWaiting !== null}
        note={dialog?.kind === 'accept' ? conditionWaiting : null}
        error={dialogError}
        onSubmit={submit}
        onClose={close}
      >
        {dialog?.kind === 'ask' ? (
          <FormField label={t('ask.from')} hint={t('dialog.optional')}>
            {(field) => (
              <Input
                {...field}
                type="date"
                min={dateInDays(0)}
                value={from}
                onChange={(event) => setFrom(event.target.value)}
              />
            )}
          </FormField>
        ) : null}
        {dialog?.kind !== 'decline' ? (
          <DueFields
            value={due}
            onChange={setDue}
            dateLabel={dialog?.kind === 'ask' ? t('ask.until') : t('due.date')}
            error={dueError}
          />
        ) : null}
        <MessageField
          label={dialog?.kind === 'decline' ? t('ask.reason') : t('ask.message')}
          value={text}
          onChange={setText}
        />
        {dialog?.kind === 'accept' ? (
          <ConditionEditor
            photos={photos}
            note={conditionNote}
            onNoteChange={setConditionNote}
            disabled={pending}
            hint={t('condition.hint', { max: LIMITS.conditionPhotosMax })}
          />
        ) : null}
      </FormDialog>
    </section>
  )
}

import { LIMITS, type TLoan } from '@circles/shared'
import { CalendarClock, CalendarPlus, Undo2 } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ConditionEditor } from '@/components/condition/condition-editor'
import { useConditionPhotos } from '@/components/condition/use-condition-photos'
import { type DueValue, DueFields } from '@/components/lending/due-fields'
import { FormDialog } from '@/components/lending/form-dialog'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Textarea } from '@/components/ui/textarea'
import {
  useAnswerExtension,
  useChangeDueAt,
  useRequestExtension,
  useStartReturn,
  useWithdrawExtension,
} from '@/lib/lending/api'
import {
  DEFAULT_LOAN_DAYS,
  dueAtFrom,
  END_OF_DAY,
  formatDue,
  localDateValue,
  localTimeValue,
} from '@/lib/lending/dates'
import { personName } from '@/lib/person-name'
import { failureMessage } from '@/lib/server-errors'
import { type Outcome, useOutcome } from './use-outcome'

type Dialog = 'return' | 'extend' | 'change' | null

/** The loan's date moved by `days`, as the date and time inputs hold it (its time kept). */
function dueValue(iso: string, days: number): DueValue {
  const date = new Date(iso)
  date.setDate(date.getDate() + days)
  return { date: localDateValue(date), time: localTimeValue(date) }
}

/**
 * What the borrower and the lender do with a loan on the item page (issue 26): the borrower returns it
 * or asks for more time; the lender records a return, changes the date, answers a wish for more time.
 * A pending return says who must confirm it.
 */
export function LoanActions({ loan, viewerId }: { loan: TLoan; viewerId: string | undefined }) {
  const { t, i18n } = useTranslation('loans')
  const language = i18n.resolvedLanguage ?? i18n.language
  const [outcome, setOutcome] = useOutcome()
  const [dialog, setDialog] = useState<Dialog>(null)
  const [dialogError, setDialogError] = useState<string | null>(null)
  const [comment, setComment] = useState('')
  const [due, setDue] = useState<DueValue>({ date: '', time: END_OF_DAY })
  const [dueError, setDueError] = useState<string>()
  // Issue 28: the condition it comes back in (the return's photos and note).
  const photos = useConditionPhotos()
  const [conditionNote, setConditionNote] = useState('')
  const startReturn = useStartReturn()
  const requestExtension = useRequestExtension()
  const answerExtension = useAnswerExtension()
  const withdrawExtension = useWithdrawExtension()
  const changeDueAt = useChangeDueAt()

  const isBorrower = loan.borrower.id === viewerId
  const isLender = loan.lender.id === viewerId
  if (!isBorrower && !isLender) return null
  const lender = personName(loan.lender.name)
  const borrower = personName(loan.borrower.name)
  const other = isBorrower ? lender : borrower

  const open = (which: Dialog, days = 0) => {
    setDialog(which)
    setDialogError(null)
    setDueError(undefined)
    setComment('')
    setDue(dueValue(loan.dueAt, days))
  }
  const close = () => setDialog(null)
  const done = (text: string) => () => {
    setDialog(null)
    setOutcome({ tone: 'success', text })
  }
  const failed = (fallback: string) => (error: Error) => setDialogError(failureMessage(error, fallback))
  const failedInline = (fallback: string) => (error: Error) =>
    setOutcome({ tone: 'error', text: failureMessage(error, fallback) })
  const pickedDue = () => {
    const picked = dueAtFrom(due.date, due.time)
    if ('error' in picked) {
      setDueError(t(`due.${picked.error}`))
      return null
    }
    setDueError(undefined)
    return picked.dueAt
  }

  const returnWaiting = photos.uploading
    ? t('condition.waitForUploads')
    : photos.failed
      ? t('condition.fixFailed')
      : null
  const submitReturn = () => {
    const note = conditionNote.trim()
    const condition =
      photos.photoIds.length || note ? { photoIds: photos.photoIds, note: note || null } : undefined
    startReturn.mutate(
      { loanId: loan.id, comment, condition },
      {
        onSuccess: () => {
          // Attached now: the editor forgets them without deleting.
          photos.reset()
          setConditionNote('')
          done(
            isBorrower
              ? t('loan.returnStarted', { name: lender })
              : t('loan.returnRecorded', { name: borrower }),
          )()
        },
        onError: failed(t('loan.actionFailed')),
      },
    )
  }
  const submitExtension = () => {
    const dueAt = pickedDue()
    if (!dueAt) return
    requestExtension.mutate(
      { loanId: loan.id, dueAt, message: comment },
      { onSuccess: done(t('loan.extensionSent', { name: lender })), onError: failed(t('loan.actionFailed')) },
    )
  }
  const submitChange = () => {
    const dueAt = pickedDue()
    if (!dueAt) return
    changeDueAt.mutate(
      { loanId: loan.id, dueAt },
      {
        onSuccess: done(t('loan.dateChanged', { date: formatDue(dueAt, language) })),
        onError: failed(t('loan.actionFailed')),
      },
    )
  }

  const extension = loan.pendingExtension
  const pendingReturn = loan.pendingReturn
  const busy = answerExtension.isPending || withdrawExtension.isPending

  return (
    <div className="flex flex-col gap-3">
      {outcome ? <OutcomeAlert outcome={outcome} /> : null}
      {pendingReturn ? (
        <Alert tone="info" title={t('loan.returnPendingTitle')}>
          {pendingReturn.startedBy === (isBorrower ? 'BORROWER' : 'LENDER')
            ? t('loan.returnWaitingFor', { name: other })
            : t('loan.returnConfirmHere', { name: other })}
        </Alert>
      ) : null}

      {extension && extension.status === 'PENDING' ? (
        <div className="flex flex-col gap-2 rounded-md border border-border bg-surface-2 p-3 text-sm">
          <p className="font-medium">
            {isLender
              ? t('loan.extensionAsked', { name: borrower, date: formatDue(extension.dueAt, language) })
              : t('loan.extensionMine', { date: formatDue(extension.dueAt, language) })}
          </p>
          {extension.message ? <p className="break-words text-fg-muted">“{extension.message}”</p> : null}
          <div className="flex flex-wrap gap-2">
            {isLender ? (
              <>
                <Button
                  size="sm"
                  needsServer
                  disabled={busy}
                  onClick={() =>
                    answerExtension.mutate(
                      { loanId: loan.id, extensionId: extension.id, status: 'ACCEPTED' },
                      {
                        onSuccess: () =>
                          setOutcome({
                            tone: 'success',
                            text: t('loan.extensionAccepted', { date: formatDue(extension.dueAt, language) }),
                          }),
                        onError: failedInline(t('loan.actionFailed')),
                      },
                    )
                  }
                >
                  {t('loan.accept')}
                </Button>
                <Button
                  size="sm"
                  variant="secondary"
                  needsServer
                  disabled={busy}
                  onClick={() =>
                    answerExtension.mutate(
                      { loanId: loan.id, extensionId: extension.id, status: 'DECLINED' },
                      {
                        onSuccess: () => setOutcome({ tone: 'success', text: t('loan.extensionDeclined') }),
                        onError: failedInline(t('loan.actionFailed')),
                      },
                    )
                  }
                >
                  {t('loan.decline')}
                </Button>
              </>
            ) : (
              <Button
                size="sm"
                variant="secondary"
                disabled={busy}
                onClick={() =>
                  withdrawExtension.mutate(
                    { loanId: loan.id, extensionId: extension.id },
                    {
                      onSuccess: () => setOutcome({ tone: 'success', text: t('loan.extensionWithdrawn') }),
                      onError: failedInline(t('loan.actionFailed')),
                    },
                  )
                }
              >
                {t('loan.withdrawExtension')}
              </Button>
            )}
          </div>
        </div>
      ) : null}

      {!pendingReturn ? (
        <Button
          className="w-full"
          needsServer
          icon={<Undo2 aria-hidden="true" />}
          onClick={() => open('return')}
        >
          {isBorrower ? t('loan.return') : t('loan.recordReturn')}
        </Button>
      ) : null}
      {isBorrower && !extension && !loan.recalledAt ? (
        <Button
          variant="secondary"
          className="w-full"
          needsServer
          icon={<CalendarPlus aria-hidden="true" />}
          onClick={() => open('extend', DEFAULT_LOAN_DAYS)}
        >
          {t('loan.askMoreTime')}
        </Button>
      ) : null}
      {isLender && !loan.recalledAt ? (
        <Button
          variant="secondary"
          className="w-full"
          needsServer
          icon={<CalendarClock aria-hidden="true" />}
          onClick={() => open('change')}
        >
          {t('loan.changeDate')}
        </Button>
      ) : null}

      <FormDialog
        open={dialog === 'return'}
        title={
          isBorrower
            ? t('loan.returnTitle', { item: loan.item.name })
            : t('loan.recordTitle', { item: loan.item.name })
        }
        description={
          isBorrower
            ? t('loan.returnBody', { name: lender })
            : loan.recalledAt
              ? t('loan.recordRecalledBody', { name: borrower })
              : t('loan.recordBody', { name: borrower })
        }
        submitLabel={isBorrower ? t('loan.return') : t('loan.recordReturn')}
        cancelLabel={t('dialog.cancel')}
        pending={startReturn.isPending}
        submitDisabled={returnWaiting !== null}
        note={returnWaiting}
        error={dialog === 'return' ? dialogError : null}
        onSubmit={submitReturn}
        onClose={close}
      >
        <MessageField label={t('loan.comment')} value={comment} onChange={setComment} />
        {/* A recalled loan's return is the lender's alone, with nobody to confirm it: no condition (issue 28). */}
        {loan.recalledAt ? null : (
          <ConditionEditor
            photos={photos}
            note={conditionNote}
            onNoteChange={setConditionNote}
            disabled={startReturn.isPending}
            hint={t('condition.returnHint', { max: LIMITS.conditionPhotosMax })}
          />
        )}
      </FormDialog>
      <FormDialog
        open={dialog === 'extend'}
        title={t('loan.extendTitle')}
        description={t('loan.extendBody', { name: lender, date: formatDue(loan.dueAt, language) })}
        submitLabel={t('loan.sendExtension')}
        cancelLabel={t('dialog.cancel')}
        pending={requestExtension.isPending}
        error={dialog === 'extend' ? dialogError : null}
        onSubmit={submitExtension}
        onClose={close}
      >
        <DueFields value={due} onChange={setDue} dateLabel={t('loan.newDate')} error={dueError} />
        <MessageField label={t('loan.message')} value={comment} onChange={setComment} />
      </FormDialog>
      <FormDialog
        open={dialog === 'change'}
        title={t('loan.changeTitle')}
        description={t('loan.changeBody', { name: borrower, date: formatDue(loan.dueAt, language) })}
        submitLabel={t('loan.saveDate')}
        cancelLabel={t('dialog.cancel')}
        pending={changeDueAt.isPending}
        error={dialog === 'change' ? dialogError : null}
        onSubmit={submitChange}
        onClose={close}
      >
        <DueFields value={due} onChange={setDue} dateLabel={t('loan.newDate')} error={dueError} />
      </FormDialog>
    </div>
  )
}

export function OutcomeAlert({ outcome }: { outcome: Outcome }) {
  return <Alert tone={outcome.tone}>{outcome.text}</Alert>
}

export function MessageField({
  label,
  value,
  onChange,
}: {
  label: string
  value: string
  onChange: (value: string) => void
}) {
  const { t } = useTranslation('loans')
  return (
    <FormField label={label} hint={t('dialog.optional')}>
      {(field) => (
        <Textarea {...field} rows={2} value={value} onChange={(event) => onChange(event.target.value)} />
      )}
    </FormField>
  )
}

import { useIsMutating } from '@tanstack/react-query'
import { MESSAGES, type TAnswerConditionInput, type TItem } from '@circles/shared'
import { ArrowLeft, Link2, Lock, Pencil, Printer, Send, Trash2 } from 'lucide-react'
import { type ReactNode, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, Navigate, useLocation, useNavigate, useParams } from 'react-router'
import { Staged } from '@/components/staged'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button, buttonClasses } from '@/components/ui/button'
import { HandoverAnswer } from '@/components/handover-answer'
import { LendingBadges } from '@/components/lending/lending-badge'
import { failureMessage, translateServerError } from '@/lib/server-errors'
import { getSession } from '@/lib/session'
import { withFrom } from '@/lib/return-path'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useAnswerHandover, useItemHandovers } from '../api/handovers'
import { useItem, useOwnershipStatus } from '../api/items'
import { DeleteItemDialog } from '../components/delete-item-dialog'
import { ItemFailure, ItemLoading, ItemPageFrame } from '../components/item-page-states'
import { ConditionTimeline } from '../components/condition-timeline'
import { ItemLabel } from '../components/labels/item-label'
import { LendingSection } from '../components/lending/lending-section'
import { formatItemDate } from '../components/item-dates'
import { type ItemActionState, itemActions } from '../lib/item-permissions'
import { PrivateImage } from '@/components/private-image'
import { personName } from '@/lib/person-name'

/** /items/:itemId (spec 001 §2): the picture, the details, and what the viewer may do with it. */
export function ItemPage() {
  const { itemId = '' } = useParams()
  const { t, i18n } = useTranslation('items')
  const { t: tl } = useTranslation('loans')
  const navigate = useNavigate()
  const location = useLocation()
  const item = useItem(itemId)
  const ownership = useOwnershipStatus(itemId)
  // A failed handovers fetch leaves the item as it is, without handover notes (spec 001 §7).
  const handovers = useItemHandovers(itemId)
  const [confirming, setConfirming] = useState(false)
  const answer = useAnswerHandover()
  const [answered, setAnswered] = useState<{ tone: 'success' | 'error'; text: string } | null>(null)
  const language = i18n.resolvedLanguage ?? i18n.language
  useDocumentTitle(item.data ? t('detail.documentTitle', { name: item.data.name }) : t('detail.loadingTitle'))
  const deleting = useIsMutating({ mutationKey: ['items', 'delete'] }) > 0
  const flash = (location.state as { error?: string } | null)?.error

  if (!itemId) return <Navigate to="/dashboard" replace />

  if (item.isPending) return <ItemLoading />
  // Our own delete in flight: the item's refetch (the socket's item_update can beat the DELETE's answer)
  // ends in a 404; keep the page as it was until the answer, so the dialog can say 'Item deleted'.
  if (item.isError && !(deleting && item.data)) return <ItemFailure error={item.error} />

  const data = item.data
  const me = getSession().user?.id
  const actions = itemActions(data, me)
  const canDelete =
    actions.delete.allowed && (ownership.data ? ownership.data.hasFullOwnership === true : true)
  const incoming = handovers.data?.find((h) => h.status === 'PENDING' && h.receiverId === me)
  const respond = (
    id: string,
    status: 'CONFIRMED' | 'REJECTED',
    receiverComment: string,
    condition: TAnswerConditionInput | undefined,
  ) =>
    answer.mutateAsync({ id, status, receiverComment, condition }).then(
      () =>
        setAnswered({
          tone: 'success',
          text: translateServerError(
            status === 'CONFIRMED' ? MESSAGES.handoverConfirmed : MESSAGES.handoverRejected,
          ),
        }),
      (error: unknown) => {
        setAnswered({ tone: 'error', text: failureMessage(error, t('handover.updateFailed')) })
        throw error
      },
    )
  const back = data.ownerLeftCircle ? '/items' : `/circle/${data.circleId}/items`

  return (
    <ItemPageFrame>
      {/* 'Print label' (issue 27): on paper only this item's label, at the size of an A4 3x8 label. */}
      <div data-testid="print-label" className="hidden print:block" style={{ width: '70mm', height: '37mm' }}>
        {/* Not on screen: its QR code is drawn after the first render, in a task of its own. */}
        <Staged>
          <ItemLabel item={data} height="37mm" />
        </Staged>
      </div>
      <div className="contents print:hidden">
        <Link
          to={back}
          className="-ms-2 inline-flex h-11 items-center gap-1.5 self-start rounded-md px-2 text-sm font-medium text-fg-muted transition-colors hover:bg-surface-2 hover:text-fg sm:h-9"
        >
          <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
          {data.ownerLeftCircle ? t('detail.backToMyItems') : t('detail.back', { circle: data.circle.name })}
        </Link>
        {flash ? <Alert tone="error">{translateServerError(flash)}</Alert> : null}
        {answered ? <Alert tone={answered.tone}>{answered.text}</Alert> : null}
        {incoming ? (
          // The answer right here, where the request is announced (docs/decisions/0029).
          <section
            aria-labelledby="handover-received"
            className="flex flex-col gap-3 rounded-lg border border-info/30 bg-info-soft p-5 shadow-sm"
          >
            <h2 id="handover-received" className="font-semibold tracking-tight">
              {incoming.kind === 'LOAN'
                ? tl('incoming.loanTitle')
                : incoming.kind === 'RETURN'
                  ? tl('incoming.returnTitle')
                  : t('handover.receivedTitle')}
            </h2>
            <p className="text-sm">
              {incoming.kind === 'LOAN'
                ? tl('incoming.loanBody', { name: personName(incoming.sender.name) })
                : incoming.kind === 'RETURN'
                  ? tl('incoming.returnBody', { name: personName(incoming.sender.name) })
                  : t('handover.receivedBody', { name: personName(incoming.sender.name) })}
            </p>
            <HandoverAnswer
              key={incoming.id}
              handover={incoming}
              busy={answer.isPending}
              onAnswer={(status, comment, condition) => respond(incoming.id, status, comment, condition)}
            />
          </section>
        ) : null}
        {data.locked ? (
          <Alert tone="info" title={t('detail.lockedTitle')}>
            {t('detail.lockedBody')}
          </Alert>
        ) : null}
        {data.ownerLeftCircle ? (
          <Alert
            tone="warning"
            title={t('detail.removedTitle')}
            action={
              canDelete ? (
                <Button
                  variant="danger"
                  size="sm"
                  icon={<Trash2 aria-hidden="true" />}
                  onClick={() => setConfirming(true)}
                  needsServer
                >
                  {t('detail.delete')}
                </Button>
              ) : null
            }
          >
            {t('detail.removedFromCircle', { circle: data.circle.name })}
          </Alert>
        ) : null}

        <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
          <div className="flex flex-col gap-4">
            <PrivateImage
              url={data.imageUrl}
              alt={t('card.pictureOf', { name: data.name })}
              className="aspect-[4/3] w-full rounded-lg border border-border"
            />
            <div className="flex flex-col gap-2">
              <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{data.name}</h1>
              <div className="flex flex-wrap gap-2">
                {data.locked ? (
                  <Badge tone="success">
                    {t('detail.handedOver', { date: formatItemDate(data.updatedAt, language) })}
                  </Badge>
                ) : null}
                {data.hasPendingHandovers ? <Badge tone="warning">{t('detail.pending')}</Badge> : null}
                <LendingBadges lending={data.lending} />
              </div>
              <p className="whitespace-pre-line text-fg-muted">
                {data.description ?? t('card.noDescription')}
              </p>
            </div>
          </div>

          <aside className="flex flex-col gap-4">
            {/* Issue 27: beside (or below) the item, after it, a part of its own (components/staged.tsx). */}
            <Staged>
              <section
                aria-labelledby="item-details"
                className="rounded-lg border border-border bg-surface p-5 shadow-sm"
              >
                <h2 id="item-details" className="mb-3 font-semibold tracking-tight">
                  {t('detail.details')}
                </h2>
                <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
                  {data.lending?.loan ? (
                    <>
                      {/* On loan: the owner keeps it (docs/decisions/0047), the borrower has it. */}
                      <dt className="text-fg-muted">{t('detail.lender')}</dt>
                      <dd className="font-medium">{personName(data.owner.name)}</dd>
                      <dt className="text-fg-muted">{t('detail.borrower')}</dt>
                      <dd className="font-medium">{personName(data.lending.loan.borrower.name)}</dd>
                    </>
                  ) : (
                    <>
                      <dt className="text-fg-muted">{t('detail.owner')}</dt>
                      <dd className="font-medium">{personName(data.owner.name)}</dd>
                    </>
                  )}
                  <dt className="text-fg-muted">{t('detail.circle')}</dt>
                  <dd className="font-medium">{data.circle.name}</dd>
                  <dt className="text-fg-muted">{t('detail.ownership')}</dt>
                  <dd>
                    <span className="font-medium">
                      {t(data.ownership === 'COMPLETE' ? 'detail.complete' : 'detail.partial')}
                    </span>
                    {/* What the word means, in the text itself: read with the value, no hover needed. */}
                    <span className="block text-xs text-fg-muted">
                      {t(`detail.ownershipHelp.${data.ownership}`)}
                    </span>
                  </dd>
                  <dt className="text-fg-muted">{t('detail.code')}</dt>
                  <dd className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <span className="font-mono font-medium tracking-wider">{data.code}</span>
                    <Button
                      variant="secondary"
                      size="sm"
                      icon={<Printer aria-hidden="true" />}
                      onClick={() => window.print()}
                    >
                      {t('detail.printLabel')}
                    </Button>
                  </dd>
                  <dt className="text-fg-muted">{t('detail.created')}</dt>
                  <dd>
                    <time dateTime={data.createdAt}>{formatItemDate(data.createdAt, language)}</time>
                  </dd>
                  <dt className="text-fg-muted">{t('detail.updated')}</dt>
                  <dd>
                    <time dateTime={data.updatedAt}>{formatItemDate(data.updatedAt, language)}</time>
                  </dd>
                </dl>
              </section>

              {/* The ledger is the circle's, read by its members: not by a holder who left (docs/decisions/0025). */}
              {!data.ownerLeftCircle ? (
                <section
                  aria-labelledby="item-chain"
                  className="flex flex-col gap-2 rounded-lg border border-border bg-surface p-5 shadow-sm"
                >
                  <h2 id="item-chain" className="font-semibold tracking-tight">
                    {t('detail.chainTitle')}
                  </h2>
                  <p className="text-sm text-fg-muted">{t('detail.chainBody')}</p>
                  <Link
                    to={`/blockchain/item/${data.id}`}
                    className="inline-flex items-center gap-1.5 self-start text-sm font-medium text-accent-text underline"
                  >
                    <Link2 aria-hidden="true" className="size-4" />
                    {t('detail.chainLink')}
                  </Link>
                </section>
              ) : null}

              {!data.ownerLeftCircle ? <LendingSection item={data} viewerId={me} /> : null}

              {!data.ownerLeftCircle ? (
                <section
                  aria-labelledby="item-actions"
                  className="flex flex-col gap-3 rounded-lg border border-border bg-surface p-5 shadow-sm"
                >
                  <h2 id="item-actions" className="font-semibold tracking-tight">
                    {t('detail.actions')}
                  </h2>
                  <ItemActionsList
                    item={data}
                    actions={actions}
                    canDelete={canDelete}
                    onDelete={() => setConfirming(true)}
                  />
                </section>
              ) : null}
            </Staged>
          </aside>
        </div>
        {/* Issue 28: photos and notes of each handover, newest first, with the block that commits to them. */}
        <Staged>{!data.ownerLeftCircle ? <ConditionTimeline handovers={handovers} /> : null}</Staged>
      </div>
      <DeleteItemDialog
        itemId={data.id}
        open={confirming}
        onClose={() => setConfirming(false)}
        onDeleted={() => void navigate(back, { replace: true })}
      />
    </ItemPageFrame>
  )
}

/** One action the viewer does not have, shown disabled with its true reason (read with the button). */
function Refused({ label, icon, reason }: { label: string; icon: ReactNode; reason: string }) {
  const id = useId()
  return (
    <div className="flex flex-col gap-1">
      <Button variant="secondary" className="w-full" disabled icon={icon} aria-describedby={id}>
        {label}
      </Button>
      <p id={id} className="text-sm text-fg-muted">
        {reason}
      </p>
    </div>
  )
}

/** Hand over, edit and delete: each offered, or shown with why not (docs/decisions/0029). */
function ItemActionsList({
  item,
  actions,
  canDelete,
  onDelete,
}: {
  item: TItem
  actions: ReturnType<typeof itemActions>
  canDelete: boolean
  onDelete: () => void
}) {
  const { t } = useTranslation('items')
  const reason = (state: ItemActionState) =>
    state.allowed
      ? ''
      : state.reason === 'partialNote'
        ? // The spec's words (001 §6), true for a partial holder: they hold it, but not completely.
          translateServerError(MESSAGES.itemDeleteNeedsCompleteOwnership)
        : t(`detail.reasons.${state.reason}`, { name: personName(item.owner.name) })
  return (
    <>
      {actions.handOver.allowed === 'view' ? (
        <Link
          to={`/items/${item.id}/handover`}
          className={buttonClasses({ variant: 'primary', className: 'w-full' })}
        >
          <Send aria-hidden="true" />
          {t('detail.viewHandover')}
        </Link>
      ) : actions.handOver.allowed ? (
        <Link
          to={`/items/${item.id}/handover`}
          className={buttonClasses({ variant: 'primary', className: 'w-full' })}
        >
          <Send aria-hidden="true" />
          {t('detail.handOver')}
        </Link>
      ) : (
        <Refused
          label={t('detail.handOver')}
          icon={<Send aria-hidden="true" />}
          reason={reason(actions.handOver)}
        />
      )}
      {actions.edit.allowed ? (
        <Link
          to={withFrom(`/circle/${item.circleId}/items/${item.id}/edit`, `/items/${item.id}`)}
          className={buttonClasses({ variant: 'secondary', className: 'w-full' })}
        >
          <Pencil aria-hidden="true" />
          {t('detail.edit')}
        </Link>
      ) : (
        <Refused
          label={item.locked ? t('detail.editLocked') : t('detail.edit')}
          icon={item.locked ? <Lock aria-hidden="true" /> : <Pencil aria-hidden="true" />}
          reason={reason(actions.edit)}
        />
      )}
      {canDelete ? (
        <Button
          variant="danger"
          className="w-full"
          icon={<Trash2 aria-hidden="true" />}
          onClick={onDelete}
          needsServer
        >
          {t('detail.delete')}
        </Button>
      ) : actions.delete.allowed ? null : (
        <Refused
          label={t('detail.delete')}
          icon={<Trash2 aria-hidden="true" />}
          reason={reason(actions.delete)}
        />
      )}
    </>
  )
}

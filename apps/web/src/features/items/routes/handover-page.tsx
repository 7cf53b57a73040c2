import { MESSAGES, type TAnswerConditionInput, TIMINGS, type TCreateHandoverInput } from '@circles/shared'
import { ArrowLeft } from 'lucide-react'
import { type ReactNode, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, Navigate, useNavigate, useParams } from 'react-router'
import { PrivateImage } from '@/components/private-image'
import { Staged } from '@/components/staged'
import { Alert } from '@/components/ui/alert'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Spinner } from '@/components/ui/spinner'
import { ApiError } from '@/lib/api-client'
import { failureMessage, translateServerError } from '@/lib/server-errors'
import { getSession } from '@/lib/session'
import { formatDue } from '@/lib/lending/dates'
import { useDocumentTitle } from '@/lib/use-document-title'
import {
  useAnswerHandover,
  useCancelHandover,
  useCircleMembers,
  useCreateHandover,
  useItemHandovers,
} from '../api/handovers'
import { useItem, useOwnershipStatus } from '../api/items'
import { HandoverCard } from '../components/handover-card'
import { HandoverForm } from '../components/handover-form'
import { personName } from '@/lib/person-name'

type Banner = { tone: 'success' | 'error'; text: string }

/** A message that clears itself after 5 s (spec 001 §4 "Success banners"). */
function useBanner() {
  const [banner, setBanner] = useState<Banner | null>(null)
  useEffect(() => {
    if (banner?.tone !== 'success') return
    const timer = setTimeout(() => setBanner(null), TIMINGS.successBannerMs)
    return () => clearTimeout(timer)
  }, [banner])
  return [banner, setBanner] as const
}

/** /items/:itemId/handover (spec 001 §2): the request form, the pending note and the history. */
export function HandoverPage() {
  const { itemId = '' } = useParams()
  const { t, i18n } = useTranslation('items')
  const { t: tl } = useTranslation('loans')
  const language = i18n.resolvedLanguage ?? i18n.language
  const navigate = useNavigate()
  const item = useItem(itemId)
  const ownership = useOwnershipStatus(itemId)
  const handovers = useItemHandovers(itemId)
  const members = useCircleMembers(item.data?.ownerLeftCircle ? undefined : item.data?.circleId)
  const create = useCreateHandover()
  const answer = useAnswerHandover()
  const cancel = useCancelHandover()
  const [banner, setBanner] = useBanner()
  const [cancelling, setCancelling] = useState<string | null>(null)
  useDocumentTitle(
    item.data ? t('handover.documentTitle', { name: item.data.name }) : t('detail.loadingTitle'),
  )

  const membersStatus = members.error instanceof ApiError ? members.error.status : 0
  useEffect(() => {
    // Not (or no longer) a member of the item's circle: back to the item (spec 001 §2).
    if (membersStatus === 403 || membersStatus === 404) void navigate(`/items/${itemId}`, { replace: true })
  }, [membersStatus, itemId, navigate])

  if (!itemId) return <Navigate to="/dashboard" replace />
  const frame = (children: ReactNode) => (
    <main
      id="main-content"
      className="mx-auto flex w-full max-w-3xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12"
    >
      {children}
    </main>
  )
  if (item.isPending) {
    return frame(
      <div className="flex min-h-[40dvh] items-center justify-center text-fg-subtle">
        <Spinner size="lg" label={t('detail.loading')} />
      </div>,
    )
  }
  if (item.isError) {
    return frame(
      <Alert tone="error" title={t('detail.loadFailed')}>
        <Link to="/items" className="underline">
          {t('detail.toMyItems')}
        </Link>
      </Alert>,
    )
  }

  const data = item.data
  const me = getSession().user?.id
  const list = handovers.data ?? []
  const open = list.find((h) => h.status === 'PENDING')
  const isOwner = data.ownerId === me
  const fail = (fallback: string) => (error: Error) =>
    setBanner({ tone: 'error', text: failureMessage(error, fallback) })

  const submit = (request: TCreateHandoverInput) =>
    create.mutate(request, {
      onSuccess: () => setBanner({ tone: 'success', text: translateServerError(MESSAGES.handoverCreated) }),
      onError: fail(t('handover.createFailed')),
    })
  const respond = (
    id: string,
    status: 'CONFIRMED' | 'REJECTED',
    receiverComment: string,
    condition: TAnswerConditionInput | undefined,
  ) =>
    answer.mutateAsync({ id, status, receiverComment, condition }).then(
      () =>
        setBanner({
          tone: 'success',
          text: translateServerError(
            status === 'CONFIRMED' ? MESSAGES.handoverConfirmed : MESSAGES.handoverRejected,
          ),
        }),
      (error: Error) => {
        fail(t('handover.updateFailed'))(error)
        throw error
      },
    )
  const confirmCancel = () => {
    if (!cancelling) return
    cancel.mutate(cancelling, {
      onSuccess: () => setBanner({ tone: 'success', text: translateServerError(MESSAGES.handoverCancelled) }),
      onError: fail(t('handover.cancelFailed')),
      onSettled: () => setCancelling(null),
    })
  }

  let action: ReactNode
  if (open && open.senderId === me) {
    action = (
      <Alert tone="info" title={t('handover.sentTitle')}>
        {t('handover.sentBody', { name: personName(open.receiver.name) })}
      </Alert>
    )
  } else if (open && open.receiverId === me) {
    action = (
      <Alert tone="info" title={t('handover.receivedTitle')}>
        {t('handover.receivedBody', { name: personName(open.sender.name) })}
      </Alert>
    )
  } else if (open) {
    action = <Alert tone="info">{t('handover.pendingOther')}</Alert>
  } else if (!isOwner) {
    // Someone else holds it: the true reason, also for whoever handed it over before (decisions/0029).
    action = (
      <p className="text-sm text-fg-muted">
        {t('handover.onlyOwner', { name: personName(data.owner.name) })}
      </p>
    )
  } else if (data.ownerLeftCircle) {
    action = <Alert tone="warning">{translateServerError(MESSAGES.handoverItemIsolated)}</Alert>
  } else if (data.lending.loan) {
    // Lent out: it comes back before it is handed over or lent again (docs/decisions/0047).
    action = (
      <Alert tone="info">
        {tl('handover.onLoan', {
          name: personName(data.lending.loan.borrower.name),
          date: formatDue(data.lending.loan.dueAt, language),
        })}
      </Alert>
    )
  } else if (members.isPending || ownership.isPending) {
    action = <Spinner label={t('detail.loading')} />
  } else {
    action = (
      <HandoverForm
        itemId={data.id}
        members={(members.data ?? []).filter((member) => member.userId !== me)}
        canGiveComplete={ownership.data?.hasFullOwnership === true}
        pending={create.isPending}
        onSubmit={submit}
      />
    )
  }

  return frame(
    <>
      <Link
        to={`/items/${data.id}`}
        className="-ms-2 inline-flex h-11 items-center gap-1.5 self-start rounded-md px-2 text-sm font-medium text-fg-muted transition-colors hover:bg-surface-2 hover:text-fg sm:h-9"
      >
        <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
        {t('handover.back', { name: data.name })}
      </Link>
      <div className="flex items-center gap-4">
        <PrivateImage
          url={data.thumbnailUrl}
          alt={t('card.pictureOf', { name: data.name })}
          className="size-20 shrink-0 rounded-lg border border-border"
        />
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-semibold tracking-tight">
            {t('handover.title', { name: data.name })}
          </h1>
          <p className="text-sm text-fg-muted">
            {t('card.heldBy', { name: personName(data.owner.name), circle: data.circle.name })}
          </p>
        </div>
      </div>
      {banner ? <Alert tone={banner.tone}>{banner.text}</Alert> : null}

      <section
        aria-labelledby="handover-request"
        className="flex flex-col gap-4 rounded-lg border border-border bg-surface p-5 shadow-sm"
      >
        <h2 id="handover-request" className="font-semibold tracking-tight">
          {t('handover.requestTitle')}
        </h2>
        <Staged>{action}</Staged>
      </section>

      <section aria-labelledby="handover-history" className="flex flex-col gap-3">
        <h2 id="handover-history" className="font-semibold tracking-tight">
          {t('handover.history')}
        </h2>
        <Staged>
          {handovers.isPending ? (
            <Spinner label={t('detail.loading')} />
          ) : handovers.isError ? (
            <Alert tone="error">{t('detail.loadFailed')}</Alert>
          ) : list.length === 0 ? (
            <p className="text-sm text-fg-muted">{t('handover.noHistory')}</p>
          ) : (
            <ul className="flex flex-col gap-3">
              {list.map((handover) => (
                <HandoverCard
                  key={handover.id}
                  handover={handover}
                  viewerId={me}
                  busy={answer.isPending || cancel.isPending}
                  onAnswer={(status, comment, condition) => respond(handover.id, status, comment, condition)}
                  onCancel={() => setCancelling(handover.id)}
                />
              ))}
            </ul>
          )}
        </Staged>
      </section>

      <ConfirmDialog
        open={cancelling !== null}
        title={t('handover.cancelTitle')}
        description={t('handover.cancelQuestion')}
        confirmLabel={t('handover.cancel')}
        cancelLabel={t('handover.keep')}
        tone="danger"
        pending={cancel.isPending}
        onConfirm={confirmCancel}
        onCancel={() => setCancelling(null)}
      />
    </>,
  )
}

import { ArrowLeft, Award } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { buttonClasses } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { translateServerError } from '@/lib/server-errors'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useBlock } from '../api/blocks'
import { NoLongerMemberNotice } from '@/components/no-longer-member-notice'
import { departureOf } from '@/lib/no-longer-member'
import {
  BlockStory,
  formatBlockTime,
  HashCheck,
  partyName,
  RedactedNote,
  transferReason,
  kindLabel,
  loanDueAt,
} from '../components/block-card'
import { VerificationStatus } from '../components/verification-status'
import { useLedgerVerification } from '@/lib/ledger-verification/use-ledger-verification'
import { conditionEvidence } from '@/lib/ledger-verification/condition-evidence'
import { useConditionPhotos } from '@/lib/ledger-verification/use-condition-photos'
import { ConditionAlarm } from '../components/condition-alarm'
import { ConditionSection } from '../components/condition-section'
import { CheckPhoto } from '../components/check-photo'
import { useMemo } from 'react'

/** /blockchain/:id: one block with every field it hashes, in full. */
export function BlockPage() {
  const { id = '' } = useParams()
  const { t, i18n } = useTranslation('ledger')
  const block = useBlock(id)
  const checks = useLedgerVerification(block.data ? [block.data] : undefined)
  const inLog = checks[0]?.result?.state === 'verified'
  const evidence = useMemo(() => (block.data ? conditionEvidence(block.data) : null), [block.data])
  const photos = useConditionPhotos(evidence)
  const language = i18n.resolvedLanguage ?? i18n.language
  useDocumentTitle(t('block.documentTitle'))

  const back = (
    <Link
      to={block.data ? `/blockchain/circle/${block.data.content.circle.id}` : '/blockchain'}
      className="-ms-2 inline-flex h-11 items-center gap-1.5 self-start rounded-md px-2 text-sm font-medium text-fg-muted hover:bg-surface-2 hover:text-fg sm:h-9"
    >
      <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
      {t('block.back')}
    </Link>
  )
  const departure = departureOf(block.error)
  let body
  if (block.isPending) body = <Spinner size="lg" label={t('loading')} />
  else if (departure) body = <NoLongerMemberNotice departure={departure} />
  else if (block.isError)
    body = (
      <Alert tone="error" title={t('loadFailed')}>
        {translateServerError(block.error.message)}
      </Alert>
    )
  else {
    const { content, comments } = block.data
    const rows: [string, React.ReactNode][] = [
      [t('block.height'), content.height],
      [t('block.time'), <time dateTime={content.time}>{formatBlockTime(content.time, language)}</time>],
      [t('block.circle'), content.circle.name],
      [
        t('block.item'),
        <Link to={`/items/${content.item.id}`} className="underline">
          {content.item.name}
        </Link>,
      ],
      [t('block.from'), partyName(block.data, 'from')],
      [t('block.to'), partyName(block.data, 'to')],
      [t('block.ownership'), t(content.ownership === 'COMPLETE' ? 'complete' : 'partial')],
      [t('block.kind'), kindLabel(t, block.data)],
      [t('hash'), <code className="font-mono text-xs break-all">{block.data.hash}</code>],
      [t('prevHash'), <code className="font-mono text-xs break-all">{content.prevHash}</code>],
      [t('block.first'), content.first ? t('block.yes') : t('block.no')],
      [t('block.requesterComment'), comments.requesterComment ?? '–'],
      [t('block.receiverComment'), comments.receiverComment ?? '–'],
    ]
    const dueAt = loanDueAt(block.data)
    if (dueAt) {
      rows.splice(8, 0, [t('block.dueAt'), <time dateTime={dueAt}>{formatBlockTime(dueAt, language)}</time>])
    }
    if (content.kind === 'AUTO_TRANSFER') {
      const reason = transferReason(block.data)
      const key =
        reason === 'REMOVED'
          ? 'block.reasonRemoved'
          : reason === 'LEFT'
            ? 'block.reasonLeft'
            : 'block.reasonUnknown'
      rows.splice(8, 0, [t('block.reason'), t(key, { from: partyName(block.data, 'from') })])
    }
    if (comments.secretMessage) rows.push([t('secretForYou'), comments.secretMessage])
    body = (
      <>
        <div className="flex flex-col gap-2">
          <h1 className="text-2xl font-semibold tracking-tight">
            {t('blockNumber', { height: content.height })}
          </h1>
          <BlockStory block={block.data} />
          <RedactedNote block={block.data} />
          <HashCheck block={block.data} inLog={inLog} />
        </div>
        {/* A changed photo or note first: the device check below vouches for the blocks, not for them. */}
        <ConditionAlarm block={block.data} evidence={evidence} photos={photos} />
        <VerificationStatus checks={checks} />
        {evidence ? (
          <ConditionSection block={block.data} evidence={evidence} photos={photos}>
            {photos.length > 0 ? <CheckPhoto block={block.data} /> : null}
          </ConditionSection>
        ) : null}
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-lg border border-border bg-surface p-5 text-sm shadow-sm sm:grid-cols-[auto_1fr]">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-fg-muted">{label}</dt>
              <dd className="min-w-0">{value}</dd>
            </div>
          ))}
        </dl>
      </>
    )
  }
  return (
    <main
      id="main-content"
      className="mx-auto flex w-full max-w-3xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        {back}
        {block.data ? (
          <Link
            to={`/blockchain/${block.data.id}/certificate`}
            className={buttonClasses({ variant: 'secondary', size: 'sm' })}
          >
            <Award aria-hidden="true" className="size-4" />
            {t('certificate.link')}
          </Link>
        ) : null}
      </div>
      {body}
    </main>
  )
}

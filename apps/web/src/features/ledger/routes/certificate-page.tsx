import { cosignaturesOf, parseCosignerKey, parseNote } from '@circles/ledger'
import { useQuery } from '@tanstack/react-query'
import { ArrowLeft, Printer } from 'lucide-react'
import { QRCodeSVG } from 'qrcode.react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Logo } from '@/components/ui/logo'
import { Spinner } from '@/components/ui/spinner'
import { translateServerError } from '@/lib/server-errors'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useBlock } from '../api/blocks'
import { BlockStory, formatBlockTime, partyName } from '../components/block-card'
import { VerificationStatus } from '../components/verification-status'
import { useLedgerVerification } from '@/lib/ledger-verification/use-ledger-verification'
import { logApi } from '@/lib/ledger-verification/log-api'
import type { Witness } from '@/lib/ledger-verification/split-view'

/** Who signed a checkpoint note: the names on its signature lines (not the cosignatures, 8 bytes longer). */
function signers(note: string): string {
  try {
    const lines = parseNote(note).signatures.filter((s) => s.signature.length === 64)
    return [...new Set(lines.map((s) => s.name))].join(', ')
  } catch {
    return '–'
  }
}

/**
 * The members' devices whose cosignatures on the note verify (issue 29): printed with their keys, the
 * certificate's checkpoint can be checked offline against them too, not only against the server's key.
 */
function cosignersOf(note: string, witnesses: readonly Witness[]): Witness[] {
  const keyed = witnesses.flatMap((witness) => {
    try {
      return [{ witness, key: parseCosignerKey(witness.verifierKey) }]
    } catch {
      return []
    }
  })
  try {
    const found = new Set(
      cosignaturesOf(
        note,
        keyed.map((k) => k.key),
      ).map((c) => c.key),
    )
    return keyed.filter((k) => found.has(k.key)).map((k) => k.witness)
  } catch {
    // A line of a member's key that does not verify: the device check's alarm says so.
    return []
  }
}

/**
 * /blockchain/:id/certificate: a printable handover certificate (issue 14) with the item, the parties,
 * the date, the block hash, the signed checkpoint this device proved the block in, and a QR code
 * linking to the block's page. Printing uses the print stylesheet: only this card, black on white.
 */
export function CertificatePage() {
  const { id = '' } = useParams()
  const { t, i18n } = useTranslation('ledger')
  const block = useBlock(id)
  const checks = useLedgerVerification(block.data ? [block.data] : undefined)
  const verified = checks[0]?.result?.state === 'verified' ? checks[0].result : undefined
  const witnesses = useQuery({
    queryKey: ['ledger', 'witnesses', verified?.circleId],
    queryFn: () => logApi.witnesses(verified!.circleId),
    enabled: !!verified,
  })
  const cosigners = verified && witnesses.data ? cosignersOf(verified.note, witnesses.data) : []
  const language = i18n.resolvedLanguage ?? i18n.language
  useDocumentTitle(t('certificate.documentTitle'))

  let body
  if (block.isPending) body = <Spinner size="lg" label={t('loading')} />
  else if (block.isError)
    body = (
      <Alert tone="error" title={t('loadFailed')}>
        {translateServerError(block.error.message)}
      </Alert>
    )
  else {
    const { content, hash } = block.data
    const link = `${window.location.origin}/blockchain/${block.data.id}`
    const rows: [string, React.ReactNode][] = [
      [t('certificate.item'), content.item.name],
      [t('certificate.from'), partyName(block.data, 'from')],
      [t('certificate.to'), partyName(block.data, 'to')],
      [t('certificate.date'), <time dateTime={content.time}>{formatBlockTime(content.time, language)}</time>],
      [t('certificate.circle'), content.circle.name],
      [
        t('certificate.block'),
        `${t('blockNumber', { height: content.height })} · ${t(content.ownership === 'COMPLETE' ? 'complete' : 'partial')}`,
      ],
      [t('certificate.blockHash'), <code className="font-mono text-xs break-all">{hash}</code>],
    ]
    if (verified) {
      rows.push(
        [t('certificate.checkpoint'), t('certificate.checkpointSize', { count: verified.size })],
        [t('certificate.root'), <code className="font-mono text-xs break-all">{verified.rootHash}</code>],
        [t('certificate.signedBy'), signers(verified.note)],
      )
      if (cosigners.length > 0) {
        rows.push([t('certificate.cosignedBy'), t('certificate.cosigners', { count: cosigners.length })])
      }
    }
    body = (
      <article className="flex flex-col gap-6 rounded-xl border border-border bg-surface p-6 shadow-sm sm:p-10 print:rounded-none print:border-0 print:p-0 print:shadow-none">
        <header className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between print:flex-row print:items-start print:justify-between">
          <div className="flex min-w-0 flex-1 flex-col gap-2">
            <Logo />
            <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{t('certificate.title')}</h1>
            <p className="text-fg-muted">{t('certificate.intro', { circle: content.circle.name })}</p>
          </div>
          <figure className="flex shrink-0 flex-col items-center gap-1.5 self-start">
            <QRCodeSVG value={link} size={128} level="M" marginSize={2} title={t('certificate.qr')} />
            <figcaption className="max-w-40 text-center text-xs text-fg-muted">
              {t('certificate.qr')}
            </figcaption>
          </figure>
        </header>
        <BlockStory block={block.data} />
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr] print:grid-cols-[auto_1fr]">
          {rows.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-fg-muted">{label}</dt>
              <dd className="min-w-0">{value}</dd>
            </div>
          ))}
        </dl>
        {verified ? (
          <pre className="overflow-x-auto rounded-md bg-surface-2 p-3 font-mono text-[11px] leading-relaxed whitespace-pre-wrap break-all print:bg-transparent print:p-0">
            {verified.note}
          </pre>
        ) : null}
        {cosigners.length > 0 ? (
          <section aria-labelledby="certificate-witness-keys" className="flex flex-col gap-1.5 text-sm">
            <h2 id="certificate-witness-keys" className="text-fg-muted">
              {t('certificate.witnessKeys')}
            </h2>
            <ul className="flex flex-col gap-1 font-mono text-[11px] leading-relaxed break-all">
              {cosigners.map((c) => (
                <li key={c.verifierKey}>{c.verifierKey}</li>
              ))}
            </ul>
          </section>
        ) : null}
        <VerificationStatus checks={checks} />
        <p className="text-xs text-fg-muted">{t('certificate.verifyHint')}</p>
      </article>
    )
  }

  return (
    <main
      id="main-content"
      className="mx-auto flex w-full max-w-3xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12 print:max-w-none print:p-0"
    >
      <div className="flex flex-wrap items-center justify-between gap-2 print:hidden">
        <Link
          to={`/blockchain/${id}`}
          className="-ms-2 inline-flex h-11 items-center gap-1.5 rounded-md px-2 text-sm font-medium text-fg-muted hover:bg-surface-2 hover:text-fg sm:h-9"
        >
          <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
          {t('certificate.back')}
        </Link>
        {block.data ? (
          <Button icon={<Printer aria-hidden="true" />} onClick={() => window.print()}>
            {t('certificate.print')}
          </Button>
        ) : null}
      </div>
      {body}
    </main>
  )
}

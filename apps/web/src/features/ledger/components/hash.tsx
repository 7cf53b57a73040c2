import { TIMINGS } from '@circles/shared'
import { Check, Copy } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'

/** A hash shown short (first 8 and last 4, monospace) with a copy button for the whole. */
export function Hash({ hash, label }: { hash: string; label: string }) {
  const { t } = useTranslation('ledger')
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), TIMINGS.copyNoticeMs)
    return () => clearTimeout(timer)
  }, [copied])
  const copy = () =>
    navigator.clipboard
      .writeText(hash)
      .then(() => setCopied(true))
      .catch(() => setCopied(false))
  return (
    <span className="inline-flex items-center gap-1">
      <code title={hash} className="rounded bg-surface-2 px-1.5 py-0.5 font-mono text-xs">
        {hash.slice(0, 8)}…{hash.slice(-4)}
      </code>
      <button
        type="button"
        onClick={copy}
        aria-label={t('copy', { label })}
        className="inline-flex size-8 items-center justify-center rounded-md text-fg-muted hover:bg-surface-2 hover:text-fg"
      >
        {copied ? (
          <Check aria-hidden="true" className="size-4" />
        ) : (
          <Copy aria-hidden="true" className="size-4" />
        )}
      </button>
      <span role="status" className="sr-only">
        {copied ? t('copied') : ''}
      </span>
    </span>
  )
}

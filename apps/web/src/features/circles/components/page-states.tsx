import { MESSAGES } from '@circles/shared'
import { ArrowLeft, CloudOff, RotateCw } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { NotFoundMessage } from '@/components/not-found-message'
import { Button, buttonClasses } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { ApiError } from '@/lib/api-client'
import { translateServerError } from '@/lib/server-errors'

/** A centred spinner that says what is loading. */
export function LoadingState({ label }: { label: string }) {
  return (
    <div className="flex min-h-[40dvh] flex-1 items-center justify-center text-fg-subtle">
      <Spinner size="lg" label={label} />
    </div>
  )
}

/**
 * 'An error occurred' (spec 001 §8) with one way out: retry. When the server answered, its request id
 * is shown small, for a report to support (the server log's `reqId`, docs/decisions/0042).
 */
export function ErrorState({
  onRetry,
  retryLabel,
  error,
}: {
  onRetry(): void
  retryLabel: string
  error?: unknown
}) {
  const { t } = useTranslation('circles')
  const requestId = error instanceof ApiError ? error.requestId : undefined
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-4 rounded-lg border border-border bg-surface px-6 py-12 text-center shadow-sm"
    >
      <span className="inline-flex size-12 items-center justify-center rounded-full bg-danger-soft text-danger">
        <CloudOff aria-hidden="true" className="size-6" />
      </span>
      <div className="flex flex-col gap-1">
        <h2 className="text-lg font-semibold tracking-tight">
          {translateServerError(MESSAGES.anErrorOccurred)}
        </h2>
        <p className="max-w-[48ch] text-sm text-fg-muted">{t('states.errorBody')}</p>
        {requestId && (
          <p className="text-xs text-fg-subtle">
            {t('states.errorId')} <code className="select-all break-all">{requestId}</code>
          </p>
        )}
      </div>
      <Button variant="secondary" icon={<RotateCw aria-hidden="true" />} onClick={onRetry}>
        {retryLabel}
      </Button>
    </div>
  )
}

/** A circle that does not exist, or not for this user (spec 001 §2): the 404 text and a way back. */
export function NotFoundState() {
  const { t } = useTranslation('circles')
  return (
    <div className="flex flex-1 items-center justify-center py-8 sm:py-16">
      <NotFoundMessage
        title={t('states.notFoundTitle')}
        action={
          <Link to="/dashboard" className={buttonClasses({ size: 'lg' })}>
            <ArrowLeft aria-hidden="true" className="rtl:rotate-180" />
            {t('states.backToDashboard')}
          </Link>
        }
      />
    </div>
  )
}

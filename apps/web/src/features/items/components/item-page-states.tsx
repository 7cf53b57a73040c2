import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { failureKey } from '@/lib/server-errors'

/** The item page's frame, also used by the pages that lead to it (/i/:code). */
export function ItemPageFrame({ children }: { children: ReactNode }) {
  return (
    <main
      id="main-content"
      className="mx-auto flex w-full max-w-5xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6 sm:py-12"
    >
      {children}
    </main>
  )
}

/** While the item loads. */
export function ItemLoading() {
  const { t } = useTranslation('items')
  return (
    <ItemPageFrame>
      <div className="flex min-h-[40dvh] items-center justify-center text-fg-subtle">
        <Spinner size="lg" label={t('detail.loading')} />
      </div>
    </ItemPageFrame>
  )
}

/** The item could not be loaded: not found (or not shared with this person), or another failure. */
export function ItemFailure({ error }: { error: unknown }) {
  const { t } = useTranslation('items')
  return (
    <ItemPageFrame>
      <div
        role="alert"
        className="flex flex-col items-start gap-4 rounded-lg border border-border bg-surface p-6 shadow-sm"
      >
        <h1 className="text-xl font-semibold tracking-tight">
          {failureKey(error) === 'notFound' ? t('detail.notFound') : t('detail.loadFailed')}
        </h1>
        <Link to="/items" className={buttonClasses({ variant: 'secondary' })}>
          {t('detail.toMyItems')}
        </Link>
      </div>
    </ItemPageFrame>
  )
}

import { useTranslation } from 'react-i18next'
import { Spinner } from '@/components/ui/spinner'

/** Shown while a route's code or translations load; usually too brief to notice. */
export function PageLoader() {
  const { t } = useTranslation()
  return (
    <div className="flex min-h-[60dvh] items-center justify-center text-fg-subtle">
      <Spinner size="lg" label={t('loading')} />
    </div>
  )
}

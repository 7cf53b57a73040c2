import { useTranslation } from 'react-i18next'
import { Spinner } from '@/components/ui/spinner'

/**
 * Shown in place of a part of a page whose code loads when it is first opened (a form behind a button:
 * its form library is not part of the screen's first load, issue 27). Usually too brief to notice.
 */
export function PartLoader() {
  const { t } = useTranslation()
  return (
    <div className="flex min-h-24 items-center justify-center text-fg-subtle">
      <Spinner label={t('loading')} />
    </div>
  )
}

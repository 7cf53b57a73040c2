import { ScanLine } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button, type ButtonVariant } from '@/components/ui/button'
import { requestScan } from '@/lib/shell-events'

/**
 * Opens the scan dialog (issue 27; features/scan, mounted by the app layout): in the header on phones
 * (icon only), on the items list and on the dashboard.
 */
export function ScanButton({
  variant = 'secondary',
  iconOnly = false,
  className,
}: {
  variant?: ButtonVariant
  iconOnly?: boolean
  className?: string
}) {
  const { t } = useTranslation()
  return (
    <Button
      variant={variant}
      size={iconOnly ? 'icon' : 'md'}
      className={className}
      icon={<ScanLine aria-hidden="true" />}
      title={iconOnly ? t('actions.scanLabel') : undefined}
      onClick={requestScan}
    >
      {iconOnly ? <span className="sr-only">{t('actions.scanLabel')}</span> : t('actions.scan')}
    </Button>
  )
}

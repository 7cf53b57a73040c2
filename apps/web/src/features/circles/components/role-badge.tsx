import type { TCircleRole } from '@circles/shared'
import { ShieldCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'

/** The member's role; ADMIN stands out in the accent colour (spec 001 §2). */
export function RoleBadge({ role, className }: { role: TCircleRole; className?: string }) {
  const { t } = useTranslation('circles')
  if (role === 'ADMIN') {
    return (
      <Badge tone="accent" className={className}>
        <ShieldCheck aria-hidden="true" className="me-1 size-3.5" />
        {t('roles.ADMIN')}
      </Badge>
    )
  }
  return (
    <Badge tone="neutral" className={className}>
      {t('roles.MEMBER')}
    </Badge>
  )
}

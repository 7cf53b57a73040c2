import { LogIn } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { LanguageSwitch } from '@/components/language-switch'
import { Badge } from '@/components/ui/badge'
import { buttonClasses } from '@/components/ui/button'
import { Logo } from '@/components/ui/logo'

export function LandingHeader() {
  const { t } = useTranslation()

  return (
    <header className="mx-auto flex h-16 w-full max-w-6xl items-center gap-3 px-4 sm:px-6">
      <Link to="/" aria-label={t('nav.home')} className="flex items-center gap-2 rounded-md">
        <Logo />
        <Badge tone="accent">{t('beta')}</Badge>
      </Link>
      <div className="ml-auto flex items-center gap-2 sm:gap-3">
        <LanguageSwitch />
        <Link
          to="/login"
          aria-label={t('actions.login')}
          title={t('actions.login')}
          className={buttonClasses({ variant: 'ghost', size: 'icon', className: 'sm:hidden' })}
        >
          <LogIn aria-hidden="true" className="rtl:rotate-180" />
        </Link>
        {/* On phones the hero carries the call to action; the header keeps only what fits at 360 px. */}
        <div className="hidden items-center gap-2 sm:flex">
          <Link to="/login" className={buttonClasses({ variant: 'ghost' })}>
            {t('actions.login')}
          </Link>
          <Link to="/register" className={buttonClasses({ variant: 'primary' })}>
            {t('actions.getStarted')}
          </Link>
        </div>
      </div>
    </header>
  )
}

import { LogOut } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link, NavLink, Outlet } from 'react-router'
import { LanguageSwitch } from '@/components/language-switch'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Logo } from '@/components/ui/logo'
import { cn } from '@/lib/class-names'
import { logout } from '@/lib/session'

const NAV_LINK =
  'inline-flex h-9 items-center rounded-md px-3 text-sm font-medium transition-colors duration-150'

/** The signed-in shell: header with navigation, language and logout; the page below. */
export function AppLayout() {
  const { t } = useTranslation()

  return (
    <div className="flex min-h-dvh flex-col">
      <header className="sticky top-0 z-30 border-b border-border bg-surface/90 backdrop-blur">
        <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-4 px-4 sm:px-6">
          <Link to="/dashboard" aria-label={t('nav.home')} className="flex items-center gap-2 rounded-md">
            <Logo />
            <Badge tone="accent">{t('beta')}</Badge>
          </Link>
          <nav aria-label={t('nav.main')} className="hidden sm:block">
            <NavLink
              to="/dashboard"
              className={({ isActive }) =>
                cn(NAV_LINK, isActive ? 'bg-surface-2 text-fg' : 'text-fg-muted hover:text-fg')
              }
            >
              {t('nav.dashboard')}
            </NavLink>
          </nav>
          <div className="ml-auto flex items-center gap-2">
            <LanguageSwitch />
            <Button
              variant="ghost"
              size="md"
              icon={<LogOut aria-hidden="true" />}
              onClick={() => void logout()}
            >
              <span className="sr-only sm:not-sr-only">{t('actions.logout')}</span>
            </Button>
          </div>
        </div>
      </header>
      <main id="main-content" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-12">
        <Outlet />
      </main>
    </div>
  )
}

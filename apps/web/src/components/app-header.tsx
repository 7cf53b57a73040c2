import {
  Blocks,
  Handshake,
  LayoutDashboard,
  LogIn,
  LogOut,
  Menu,
  Package,
  PanelBottom,
  UserRound,
  UsersRound,
  X,
  type LucideIcon,
} from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, NavLink, useLocation } from 'react-router'
import { LanguageSwitch } from '@/components/language-switch'
import { ScanButton } from '@/components/scan-button'
import { Badge } from '@/components/ui/badge'
import { Button, buttonClasses } from '@/components/ui/button'
import { Logo } from '@/components/ui/logo'
import { UserAvatar } from '@/components/user-avatar'
import { cn } from '@/lib/class-names'
import { setFooterVisible, useFooterVisible } from '@/lib/footer-preference'
import { signOutAndLeave } from '@/lib/sign-out'
import { useSession } from '@/lib/use-session'

type NavKey = 'nav.dashboard' | 'nav.circles' | 'nav.items' | 'nav.loans' | 'nav.blockchain'

/** The signed-in areas (spec 000 §2). Circles, items and the ledger arrive with later issues. */
export const APP_NAV: ReadonlyArray<{ to: string; label: NavKey; icon: LucideIcon }> = [
  { to: '/dashboard', label: 'nav.dashboard', icon: LayoutDashboard },
  { to: '/circles', label: 'nav.circles', icon: UsersRound },
  { to: '/items', label: 'nav.items', icon: Package },
  { to: '/loans', label: 'nav.loans', icon: Handshake },
  { to: '/blockchain', label: 'nav.blockchain', icon: Blocks },
]

// The icons show from 1280 px: between 1024 and 1280 px the German labels need their room.
const BAR_LINK =
  'inline-flex h-9 items-center gap-2 rounded-md px-3 text-sm font-medium transition-colors duration-150 [&_svg]:hidden [&_svg]:size-4 xl:[&_svg]:block'
const MENU_LINK =
  'flex h-11 w-full items-center gap-3 rounded-md px-3 text-base font-medium transition-colors duration-150 [&_svg]:size-5'

function linkState(isActive: boolean): string {
  return isActive ? 'bg-accent-soft text-accent-text' : 'text-fg-muted hover:bg-surface-2 hover:text-fg'
}

function FooterToggle({ variant }: { variant: 'bar' | 'menu' }) {
  const { t } = useTranslation()
  const visible = useFooterVisible()
  const toggle = () => setFooterVisible(!visible)

  if (variant === 'menu') {
    return (
      <button
        type="button"
        aria-pressed={visible}
        onClick={toggle}
        className={cn(MENU_LINK, 'justify-between text-fg-muted hover:bg-surface-2 hover:text-fg')}
      >
        <span className="inline-flex items-center gap-3">
          <PanelBottom aria-hidden="true" />
          {t('footer.show')}
        </span>
        {/* A switch drawn for the eye; aria-pressed tells assistive technology. */}
        <span
          aria-hidden="true"
          className={cn(
            'relative inline-flex h-6 w-10 shrink-0 rounded-full transition-colors duration-150',
            visible ? 'bg-accent' : 'bg-border-strong',
          )}
        >
          <span
            className={cn(
              'absolute top-0.5 size-5 rounded-full bg-surface shadow-xs transition-transform duration-150',
              visible ? 'translate-x-4.5 rtl:-translate-x-4.5' : 'translate-x-0.5 rtl:-translate-x-0.5',
            )}
          />
        </span>
      </button>
    )
  }

  return (
    <button
      type="button"
      aria-pressed={visible}
      onClick={toggle}
      title={t('footer.show')}
      className={cn(
        buttonClasses({ variant: 'ghost', size: 'icon' }),
        visible ? 'text-accent-text' : 'text-fg-subtle',
      )}
    >
      <PanelBottom aria-hidden="true" />
      <span className="sr-only">{t('footer.show')}</span>
    </button>
  )
}

/**
 * The app header (spec 000 §2): the signed-in areas, language, profile, the footer toggle and logout,
 * or login and register for visitors. Below 1024 px everything but the language moves into a menu.
 * Hidden on the pages with their own chrome (lib/shell-rules.ts decides).
 */
/** The app areas, as a bar on wide screens and as a list in the phone menu. */
function AppNavList({ className, linkClassName }: { className: string; linkClassName: string }) {
  const { t } = useTranslation()
  return (
    <ul className={className}>
      {APP_NAV.map(({ to, label, icon: Icon }) => (
        <li key={to}>
          <NavLink to={to} className={({ isActive }) => cn(linkClassName, linkState(isActive))}>
            <Icon aria-hidden="true" />
            {t(label)}
          </NavLink>
        </li>
      ))}
    </ul>
  )
}

export function AppHeader() {
  const { t } = useTranslation()
  const { isAuthenticated, user } = useSession()
  const { pathname } = useLocation()
  // Open on one path only: following a link closes the menu without an effect.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null)
  const menuOpen = menuOpenOn === pathname
  const [leaving, setLeaving] = useState(false)
  const menuId = useId()
  const toggleRef = useRef<HTMLButtonElement>(null)
  const panelRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!menuOpen) return
    panelRef.current?.querySelector<HTMLElement>('a[href], button')?.focus()
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setMenuOpenOn(null)
      toggleRef.current?.focus()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [menuOpen])

  const handleLogout = () => {
    setLeaving(true)
    void signOutAndLeave('/')
  }

  const profileName = user?.name ?? ''

  return (
    <header className="border-b border-border bg-surface/95 backdrop-blur">
      <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-2 px-4 sm:px-6">
        {/* The badge stays outside the link: its name ("Circles home") then contains all its visible text. */}
        <div className="me-2 flex shrink-0 items-center gap-2">
          <Link to={isAuthenticated ? '/dashboard' : '/'} aria-label={t('nav.home')} className="rounded-md">
            <Logo />
          </Link>
          <Badge tone="accent">{t('beta')}</Badge>
        </div>

        {isAuthenticated ? (
          <nav aria-label={t('nav.main')} className="hidden lg:block">
            <AppNavList className="flex items-center gap-1" linkClassName={BAR_LINK} />
          </nav>
        ) : null}

        <div className="ms-auto flex items-center gap-1 sm:gap-2">
          {/* Issue 27: on phones, where labels are scanned, Scan is one tap from every page. */}
          {isAuthenticated ? <ScanButton variant="ghost" iconOnly className="lg:hidden" /> : null}
          <LanguageSwitch />
          <div className="hidden items-center gap-1 lg:flex">
            <FooterToggle variant="bar" />
            {isAuthenticated ? (
              <>
                <NavLink
                  to="/profile"
                  title={t('nav.signedInAs', { name: profileName })}
                  className={({ isActive }) =>
                    cn(
                      'inline-flex size-10 items-center justify-center rounded-full transition-colors duration-150',
                      isActive ? 'bg-accent-soft' : 'hover:bg-surface-2',
                    )
                  }
                >
                  <UserAvatar
                    name={profileName}
                    avatarUrl={user?.avatarUrl}
                    className="size-8 border border-accent/25 bg-accent-soft text-xs text-accent-text"
                  />
                  <span className="sr-only">{t('nav.profile')}</span>
                </NavLink>
                <Button
                  variant="ghost"
                  icon={<LogOut aria-hidden="true" className="rtl:rotate-180" />}
                  loading={leaving}
                  // Signing out is this device's: it works offline (docs/decisions/0054).
                  needsServer={false}
                  onClick={handleLogout}
                >
                  {t('actions.logout')}
                </Button>
              </>
            ) : (
              <>
                <Link to="/login" className={buttonClasses({ variant: 'ghost' })}>
                  {t('actions.login')}
                </Link>
                <Link to="/register" className={buttonClasses({ variant: 'primary' })}>
                  {t('actions.register')}
                </Link>
              </>
            )}
          </div>
          <button
            ref={toggleRef}
            type="button"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpenOn(menuOpen ? null : pathname)}
            className={cn(buttonClasses({ variant: 'ghost', size: 'icon' }), 'lg:hidden')}
          >
            {menuOpen ? <X aria-hidden="true" /> : <Menu aria-hidden="true" />}
            <span className="sr-only">{t('nav.menu')}</span>
          </button>
        </div>
      </div>

      <div
        ref={panelRef}
        id={menuId}
        hidden={!menuOpen}
        className="border-t border-border bg-surface lg:hidden"
      >
        {/* Its content only while open: every page's first render is the smaller for it (issue 27). */}
        {menuOpen ? (
          <div className="mx-auto flex w-full max-w-6xl flex-col gap-4 px-4 py-4 sm:px-6">
            {isAuthenticated ? (
              <nav aria-label={t('nav.main')}>
                <AppNavList className="flex flex-col gap-1" linkClassName={MENU_LINK} />
              </nav>
            ) : null}
            <div className={cn('flex flex-col gap-1', isAuthenticated && 'border-t border-border pt-4')}>
              <p className="px-3 pb-1 text-xs font-semibold tracking-wide text-fg-subtle uppercase">
                {isAuthenticated && profileName
                  ? t('nav.signedInAs', { name: profileName })
                  : t('nav.account')}
              </p>
              {isAuthenticated ? (
                <NavLink to="/profile" className={({ isActive }) => cn(MENU_LINK, linkState(isActive))}>
                  {user?.avatarUrl ? (
                    <UserAvatar
                      name={profileName}
                      avatarUrl={user.avatarUrl}
                      className="size-6 border border-accent/25 bg-accent-soft text-[10px] text-accent-text"
                    />
                  ) : (
                    <UserRound aria-hidden="true" />
                  )}
                  {t('nav.profile')}
                </NavLink>
              ) : null}
              <FooterToggle variant="menu" />
              {isAuthenticated ? (
                <button
                  type="button"
                  onClick={handleLogout}
                  disabled={leaving}
                  className={cn(MENU_LINK, 'text-fg-muted hover:bg-surface-2 hover:text-fg')}
                >
                  <LogOut aria-hidden="true" className="rtl:rotate-180" />
                  {t('actions.logout')}
                </button>
              ) : (
                <div className="grid grid-cols-2 gap-2 pt-2">
                  <Link to="/login" className={buttonClasses({ variant: 'secondary', size: 'lg' })}>
                    <LogIn aria-hidden="true" className="rtl:rotate-180" />
                    {t('actions.login')}
                  </Link>
                  <Link to="/register" className={buttonClasses({ variant: 'primary', size: 'lg' })}>
                    {t('actions.register')}
                  </Link>
                </div>
              )}
            </div>
          </div>
        ) : null}
      </div>
    </header>
  )
}

import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'react-router'
import { LanguageSwitch } from '@/components/language-switch'
import { Badge } from '@/components/ui/badge'
import { Logo } from '@/components/ui/logo'
import { StatusCard, type StatusCardTone } from '@/components/ui/status-card'
import { hasOwnChrome } from '@/lib/shell-rules'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useAuthTranslation } from '../lib/use-auth-translation'

export type AuthIconTone = Exclude<StatusCardTone, 'info'>

export interface AuthLayoutProps {
  /** The tab title, e.g. "Log in · Circles". */
  documentTitle: string
  /** The page's one h1. */
  title: ReactNode
  intro?: ReactNode
  /** A status icon above the title (email sent, success, broken link). */
  icon?: ReactNode
  iconTone?: AuthIconTone
  /**
   * When this value changes, focus moves to the title, so keyboard and screen-reader users start
   * reading the new state (e.g. "Check Your Email" after sending) instead of a vanished button.
   */
  focusKey?: string
  /** Under the card, e.g. "New to Circles? Create an account". */
  footer?: ReactNode
  children?: ReactNode
}

/**
 * The shell of every sign-in screen: one centred card. Pages that bring their own chrome (spec 000 §2:
 * /login, /register, /forgot-password, /reset-password) also get a slim header (logo home, language
 * switch) and legal links; /verify and /resend-verification sit inside the app header and footer.
 */
export function AuthLayout({
  documentTitle,
  title,
  intro,
  icon,
  iconTone = 'accent',
  focusKey,
  footer,
  children,
}: AuthLayoutProps) {
  const { t: tc } = useTranslation()
  const { t } = useAuthTranslation()
  const ownChrome = hasOwnChrome(useLocation().pathname)
  useDocumentTitle(documentTitle)

  return (
    <div className="flex flex-1 flex-col">
      {ownChrome ? (
        <header className="mx-auto flex h-16 w-full max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
          {/* The badge stays outside the link: its name ("Circles home") then contains all its visible text. */}
          <div className="flex items-center gap-2">
            <Link to="/" aria-label={tc('nav.home')} className="rounded-md">
              <Logo />
            </Link>
            <Badge tone="accent">{tc('beta')}</Badge>
          </div>
          <LanguageSwitch />
        </header>
      ) : null}

      <main
        id="main-content"
        className="flex flex-1 flex-col items-center px-4 pt-6 pb-12 sm:justify-center sm:px-6 sm:pt-8 sm:pb-20"
      >
        <div className="w-full max-w-[26rem]">
          <StatusCard title={title} intro={intro} icon={icon} iconTone={iconTone} focusKey={focusKey}>
            {children}
          </StatusCard>
          {footer ? <div className="mt-6 text-center text-sm text-fg-muted">{footer}</div> : null}
        </div>
      </main>

      {ownChrome ? (
        <footer className="px-4 pb-6">
          <nav aria-label={t('layout.legal')}>
            <ul className="flex justify-center gap-5 text-xs text-fg-subtle">
              <li>
                <Link to="/privacy" className="rounded-sm hover:text-fg hover:underline">
                  {t('layout.privacy')}
                </Link>
              </li>
              <li>
                <Link to="/terms" className="rounded-sm hover:text-fg hover:underline">
                  {t('layout.terms')}
                </Link>
              </li>
              <li>
                <Link to="/contact" className="rounded-sm hover:text-fg hover:underline">
                  {t('layout.contact')}
                </Link>
              </li>
            </ul>
          </nav>
        </footer>
      ) : null}
    </div>
  )
}

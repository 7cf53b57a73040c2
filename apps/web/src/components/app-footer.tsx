import { Cookie } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { LogoMark } from '@/components/ui/logo'
import { requestCookiePreferences } from '@/lib/shell-events'
import { useSession } from '@/lib/use-session'

const LINK =
  'rounded-sm text-sm text-fg-muted underline-offset-4 transition-colors duration-150 hover:text-fg hover:underline'

function LinkGroup({ title, children }: { title: string; children: ReactNode }) {
  return (
    <nav aria-label={title} className="flex flex-col gap-3">
      <h2 className="text-xs font-semibold tracking-wide text-fg-subtle uppercase">{title}</h2>
      <ul className="flex flex-col gap-2">{children}</ul>
    </nav>
  )
}

/**
 * The app footer (spec 000 §2): quick links, information links (about, pricing, contact, privacy,
 * terms) and the cookie preferences. Shown unless the user hid it or the page has its own chrome.
 */
export function AppFooter() {
  const { t } = useTranslation()
  const { isAuthenticated } = useSession()

  return (
    <footer className="border-t border-border bg-surface print:hidden">
      <div className="mx-auto grid w-full max-w-6xl grid-cols-2 gap-x-6 gap-y-8 px-4 py-10 sm:px-6 lg:grid-cols-[2fr_1fr_1fr]">
        <div className="col-span-2 flex flex-col gap-2 lg:col-span-1">
          <p className="inline-flex items-center gap-2 font-semibold text-fg">
            <LogoMark className="size-6" />
            Circles
          </p>
          <p className="max-w-[36ch] text-sm text-fg-muted">{t('footer.tagline')}</p>
        </div>
        <LinkGroup title={t('footer.quickLinks')}>
          {isAuthenticated ? (
            <>
              <li>
                <Link to="/dashboard" className={LINK}>
                  {t('nav.dashboard')}
                </Link>
              </li>
              <li>
                <Link to="/circles" className={LINK}>
                  {t('nav.circles')}
                </Link>
              </li>
              <li>
                <Link to="/items" className={LINK}>
                  {t('nav.items')}
                </Link>
              </li>
              <li>
                <Link to="/loans" className={LINK}>
                  {t('nav.loans')}
                </Link>
              </li>
              <li>
                <Link to="/blockchain" className={LINK}>
                  {t('nav.blockchain')}
                </Link>
              </li>
              <li>
                <Link to="/profile" className={LINK}>
                  {t('nav.profile')}
                </Link>
              </li>
            </>
          ) : (
            <>
              <li>
                <Link to="/login" className={LINK}>
                  {t('actions.login')}
                </Link>
              </li>
              <li>
                <Link to="/register" className={LINK}>
                  {t('actions.register')}
                </Link>
              </li>
            </>
          )}
        </LinkGroup>
        <LinkGroup title={t('footer.information')}>
          <li>
            <Link to="/about" className={LINK}>
              {t('footer.about')}
            </Link>
          </li>
          <li>
            {/* The landing page is a static document of its own, not a route of this app. */}
            <a href="/#pricing" className={LINK}>
              {t('footer.pricing')}
            </a>
          </li>
          <li>
            <Link to="/contact" className={LINK}>
              {t('footer.contact')}
            </Link>
          </li>
          <li>
            <Link to="/privacy" className={LINK}>
              {t('footer.privacy')}
            </Link>
          </li>
          <li>
            <Link to="/terms" className={LINK}>
              {t('footer.terms')}
            </Link>
          </li>
        </LinkGroup>
      </div>
      <div className="border-t border-border">
        <div className="mx-auto flex w-full max-w-6xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-4 sm:px-6">
          <p className="text-sm text-fg-muted">{t('footer.copyright', { year: new Date().getFullYear() })}</p>
          <button
            type="button"
            onClick={requestCookiePreferences}
            className="-mx-2 inline-flex h-10 items-center gap-2 rounded-md px-2 text-sm text-fg-muted transition-colors duration-150 hover:bg-surface-2 hover:text-fg"
          >
            <Cookie aria-hidden="true" className="size-4" />
            {t('footer.cookiePreferences')}
          </button>
        </div>
      </div>
    </footer>
  )
}

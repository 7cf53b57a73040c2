import { Menu, X } from 'lucide-react'
import { LanguageButtons } from '@/components/public/language-buttons'
import type { ChromeLabels } from '@/components/public/chrome-labels'
import { Badge } from '@/components/ui/badge'
import { buttonClasses } from '@/components/ui/button'
import { Logo } from '@/components/ui/logo'

export const LANDING_MENU_ID = 'landing-menu'

export interface AnchorLink {
  href: `#${string}`
  label: string
}

interface LandingHeaderProps {
  labels: ChromeLabels
  anchors: readonly AnchorLink[]
  language: string
}

const NAV_LINK =
  'inline-flex h-9 items-center rounded-md px-3 text-sm font-medium text-fg-muted transition-colors duration-150 hover:bg-surface-2 hover:text-fg'

/**
 * Sticky header of the landing page. Static markup only: enhance.ts gives it `data-scrolled` (a
 * background, border and shadow once the page moves under it) and drives the mobile menu.
 */
export function LandingHeader({ labels, anchors, language }: LandingHeaderProps) {
  return (
    <header
      data-landing-header=""
      className={
        'sticky top-0 z-40 border-b border-transparent transition-[background-color,border-color,box-shadow] duration-200 ' +
        'data-[scrolled=true]:border-border data-[scrolled=true]:bg-surface/90 data-[scrolled=true]:shadow-sm data-[scrolled=true]:backdrop-blur ' +
        'has-[[aria-expanded=true]]:border-border has-[[aria-expanded=true]]:bg-surface'
      }
    >
      <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-6 px-4 sm:px-6">
        {/* The badge stays outside the link: its name ("Circles home") then contains all its visible text. */}
        <div className="flex shrink-0 items-center gap-2">
          <a href="/" aria-label={labels.home} className="rounded-md">
            <Logo />
          </a>
          <Badge tone="accent">{labels.beta}</Badge>
        </div>

        <nav aria-label={labels.mainNav} className="hidden lg:block">
          <ul className="flex items-center gap-1">
            {anchors.map(({ href, label }) => (
              <li key={href}>
                <a href={href} className={NAV_LINK}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <div className="ms-auto hidden items-center gap-3 lg:flex">
          <LanguageButtons current={language} labels={labels} />
          <a href="/login" className={buttonClasses({ variant: 'ghost' })}>
            {labels.login}
          </a>
          <a href="/register" className={buttonClasses({ variant: 'primary' })}>
            {labels.getStarted}
          </a>
        </div>

        <button
          type="button"
          data-menu-toggle=""
          aria-expanded="false"
          aria-controls={LANDING_MENU_ID}
          className={buttonClasses({ variant: 'ghost', size: 'icon', className: 'group ms-auto lg:hidden' })}
        >
          <Menu aria-hidden="true" className="group-aria-expanded:hidden" />
          <X aria-hidden="true" className="hidden group-aria-expanded:block" />
          <span className="sr-only">{labels.menu}</span>
        </button>
      </div>

      <div
        id={LANDING_MENU_ID}
        hidden
        className="max-h-[calc(100dvh-4rem)] overflow-y-auto border-t border-border bg-surface shadow-md lg:hidden"
      >
        <div className="mx-auto flex w-full max-w-6xl flex-col gap-4 px-4 py-4 sm:px-6">
          <nav aria-label={labels.mobileNav}>
            <ul className="flex flex-col">
              {anchors.map(({ href, label }) => (
                <li key={href}>
                  <a
                    href={href}
                    className="flex h-12 items-center rounded-md px-3 text-base font-medium text-fg hover:bg-surface-2"
                  >
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div className="flex flex-col gap-3 border-t border-border pt-4">
            <div className="flex items-center justify-between gap-3 px-3">
              <span className="text-sm text-fg-muted">{labels.language}</span>
              <LanguageButtons current={language} labels={labels} />
            </div>
            <a href="/login" className={buttonClasses({ variant: 'secondary', size: 'lg' })}>
              {labels.login}
            </a>
            <a href="/register" className={buttonClasses({ variant: 'primary', size: 'lg' })}>
              {labels.getStarted}
            </a>
          </div>
        </div>
      </div>
    </header>
  )
}

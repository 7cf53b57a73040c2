import type { ComponentType, ReactNode } from 'react'
import { Badge } from '@/components/ui/badge'
import { Logo } from '@/components/ui/logo'
import type { ChromeLabels } from './chrome-labels'

export interface FooterLinkProps {
  href: string
  className?: string
  children: ReactNode
}

/** A plain link: right for the static landing page, where there is no router. */
function PlainLink({ href, className, children }: FooterLinkProps) {
  return (
    <a href={href} className={className}>
      {children}
    </a>
  )
}

interface PublicFooterProps {
  labels: ChromeLabels
  /** Renders links to other pages of the app (e.g. a router link); anchors on `/` stay plain links. */
  linkAs?: ComponentType<FooterLinkProps>
  /** Omit on the static landing page: its script handles `data-cookie-preferences` and `data-install-app`. */
  onCookiePreferences?: () => void
  onInstallApp?: () => void
}

const LINK =
  'rounded-sm text-sm text-fg-muted transition-colors duration-150 hover:text-fg hover:underline underline-offset-4'
const HEADING = 'text-xs font-semibold tracking-wide text-fg uppercase'

/** The footer of the landing page and the public pages (spec 000 §2). */
export function PublicFooter({
  labels,
  linkAs: PageLink = PlainLink,
  onCookiePreferences,
  onInstallApp,
}: PublicFooterProps) {
  const footer = labels.footer
  const anchors = [
    { href: '/#how-it-works', label: footer.howItWorks },
    { href: '/#features', label: footer.features },
    { href: '/#pricing', label: footer.pricing },
    { href: '/#faq', label: footer.faq },
  ]

  return (
    <footer aria-label={footer.label} className="border-t border-border bg-surface">
      <div className="mx-auto grid w-full max-w-6xl grid-cols-2 gap-x-6 gap-y-10 px-4 py-12 sm:px-6 md:grid-cols-[1.4fr_1fr_1fr_1fr] lg:py-16">
        <div className="col-span-2 flex max-w-xs flex-col items-start gap-4 md:col-span-1">
          <span className="inline-flex items-center gap-2">
            <Logo />
            <Badge tone="accent">{labels.beta}</Badge>
          </span>
          <p className="text-sm text-fg-muted">{footer.tagline}</p>
        </div>

        <nav aria-label={footer.product} className="flex flex-col gap-3">
          <h2 className={HEADING}>{footer.product}</h2>
          <ul className="flex flex-col gap-2">
            {anchors.map(({ href, label }) => (
              <li key={href}>
                <a href={href} className={LINK}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <nav aria-label={footer.company} className="flex flex-col gap-3">
          <h2 className={HEADING}>{footer.company}</h2>
          <ul className="flex flex-col gap-2">
            <li>
              <PageLink href="/about" className={LINK}>
                {footer.about}
              </PageLink>
            </li>
            <li>
              <PageLink href="/contact" className={LINK}>
                {footer.contact}
              </PageLink>
            </li>
            <li>
              <a
                href="#"
                data-install-app=""
                className={LINK}
                onClick={
                  onInstallApp
                    ? (event) => {
                        event.preventDefault()
                        onInstallApp()
                      }
                    : undefined
                }
              >
                {footer.installApp}
              </a>
            </li>
          </ul>
        </nav>

        <nav aria-label={footer.legal} className="flex flex-col gap-3">
          <h2 className={HEADING}>{footer.legal}</h2>
          <ul className="flex flex-col gap-2">
            <li>
              <PageLink href="/privacy" className={LINK}>
                {footer.privacy}
              </PageLink>
            </li>
            <li>
              <PageLink href="/terms" className={LINK}>
                {footer.terms}
              </PageLink>
            </li>
            <li>
              <button
                type="button"
                data-cookie-preferences=""
                onClick={onCookiePreferences}
                className={`${LINK} cursor-pointer text-start`}
              >
                {footer.cookiePreferences}
              </button>
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t border-border">
        <div className="mx-auto flex w-full max-w-6xl flex-col gap-2 px-4 py-6 text-sm text-fg-muted sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>{footer.copyright}</p>
          <p>{footer.location}</p>
        </div>
      </div>
    </footer>
  )
}

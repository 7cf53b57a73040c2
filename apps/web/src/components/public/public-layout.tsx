import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { cn } from '@/lib/class-names'
import { requestAppInstall, requestCookiePreferences } from '@/lib/shell-events'
import { useChromeLabels, type PublicNamespace } from './chrome-labels'
import { PublicFooter, type FooterLinkProps } from './public-footer'
import { PublicHeader } from './public-header'

function RouterLink({ href, className, children }: FooterLinkProps) {
  return (
    <Link to={href} className={className}>
      {children}
    </Link>
  )
}

interface PublicLayoutProps {
  /** The page's translation namespace; it carries the header and footer texts too. */
  namespace: Exclude<PublicNamespace, 'landing'>
  children: ReactNode
  className?: string
}

/** Header, `<main id="main-content">` (the skip link's target) and footer of a public page. */
export function PublicLayout({ namespace, children, className }: PublicLayoutProps) {
  const labels = useChromeLabels(namespace)
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader labels={labels} />
      <main id="main-content" tabIndex={-1} className={cn('flex-1 focus:outline-none', className)}>
        {children}
      </main>
      <PublicFooter
        labels={labels}
        linkAs={RouterLink}
        onCookiePreferences={requestCookiePreferences}
        onInstallApp={requestAppInstall}
      />
    </div>
  )
}

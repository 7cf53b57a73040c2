import { ArrowLeft } from 'lucide-react'
import { Link } from 'react-router'

/** The quiet "← All circles" link above a screen's heading. */
export function BackLink({ to, children }: { to: string; children: string }) {
  return (
    <Link
      to={to}
      className="-ms-2 inline-flex h-11 items-center gap-1.5 self-start rounded-md px-2 text-sm font-medium text-fg-muted transition-colors hover:bg-surface-2 hover:text-fg sm:h-9"
    >
      <ArrowLeft aria-hidden="true" className="size-4 rtl:rotate-180" />
      {children}
    </Link>
  )
}

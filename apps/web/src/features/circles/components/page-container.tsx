import type { ReactNode } from 'react'
import { cn } from '@/lib/class-names'

/** The <main> of every circles screen: the dashboard's width, or a narrow column for a form. */
export function PageContainer({
  children,
  narrow = false,
  className,
}: {
  children: ReactNode
  narrow?: boolean
  className?: string
}) {
  return (
    <main
      id="main-content"
      className={cn(
        'mx-auto flex w-full flex-1 flex-col px-4 py-8 sm:px-6 sm:py-12',
        narrow ? 'max-w-2xl' : 'max-w-6xl',
        className,
      )}
    >
      {children}
    </main>
  )
}

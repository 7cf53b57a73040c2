import type { ReactNode } from 'react'
import { cn } from '@/lib/class-names'

/** The <main> of every circles screen, with the dashboard's width and spacing. */
export function PageContainer({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <main
      id="main-content"
      className={cn('mx-auto flex w-full max-w-6xl flex-1 flex-col px-4 py-8 sm:px-6 sm:py-12', className)}
    >
      {children}
    </main>
  )
}

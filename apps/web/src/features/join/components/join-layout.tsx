import type { ReactNode } from 'react'
import { StatusCard, type StatusCardTone } from '@/components/ui/status-card'
import { useDocumentTitle } from '@/lib/use-document-title'

export type JoinIconTone = Exclude<StatusCardTone, 'warning'>

export interface JoinLayoutProps {
  documentTitle: string
  /** The page's one h1. */
  title: ReactNode
  intro?: ReactNode
  icon: ReactNode
  iconTone?: JoinIconTone
  /** Which state is shown; when it changes, focus moves to the new title (screen readers read on from there). */
  stateKey: string
  children?: ReactNode
}

/** The invitation screen: one centred card, inside the app header and footer. */
export function JoinLayout({
  documentTitle,
  title,
  intro,
  icon,
  iconTone = 'accent',
  stateKey,
  children,
}: JoinLayoutProps) {
  useDocumentTitle(documentTitle)
  return (
    <main
      id="main-content"
      className="flex flex-1 flex-col items-center px-4 pt-8 pb-12 sm:justify-center sm:px-6 sm:pb-20"
    >
      <StatusCard
        data-join-state={stateKey}
        className="w-full max-w-[28rem]"
        title={title}
        intro={intro}
        icon={icon}
        iconTone={iconTone}
        focusKey={stateKey}
      >
        {children ? <div className="flex flex-col gap-5">{children}</div> : null}
      </StatusCard>
    </main>
  )
}

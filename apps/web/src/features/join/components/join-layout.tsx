import { useEffect, useRef, type ReactNode } from 'react'
import { cn } from '@/lib/class-names'
import { useDocumentTitle } from '@/lib/use-document-title'

export type JoinIconTone = 'accent' | 'success' | 'info' | 'danger'

const ICON_TONES: Record<JoinIconTone, string> = {
  accent: 'bg-accent-soft text-accent-text',
  success: 'bg-success-soft text-success',
  info: 'bg-info-soft text-info',
  danger: 'bg-danger-soft text-danger',
}

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
  const headingRef = useRef<HTMLHeadingElement>(null)
  const previousState = useRef(stateKey)
  useEffect(() => {
    if (previousState.current === stateKey) return
    previousState.current = stateKey
    headingRef.current?.focus()
  }, [stateKey])

  return (
    <main
      id="main-content"
      className="flex flex-1 flex-col items-center px-4 pt-8 pb-12 sm:justify-center sm:px-6 sm:pb-20"
    >
      <div
        data-join-state={stateKey}
        className="w-full max-w-[28rem] rounded-lg border border-border bg-surface px-5 py-7 shadow-md sm:px-8 sm:py-9"
      >
        <span
          className={cn(
            'mb-5 inline-flex size-12 items-center justify-center rounded-full [&_svg]:size-6',
            ICON_TONES[iconTone],
          )}
        >
          {icon}
        </span>
        <h1
          ref={headingRef}
          tabIndex={-1}
          className="text-xl font-semibold tracking-tight text-balance break-words text-fg outline-none"
        >
          {title}
        </h1>
        {intro ? <div className="mt-2 text-sm text-pretty text-fg-muted">{intro}</div> : null}
        {children ? <div className="mt-7 flex flex-col gap-5">{children}</div> : null}
      </div>
    </main>
  )
}

import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/** The logo's two circles drifted apart: one is missing, like the page. */
function LostCircles() {
  return (
    <svg
      viewBox="0 0 96 48"
      fill="none"
      aria-hidden="true"
      focusable="false"
      className="h-12 w-24 text-accent"
    >
      <circle cx="26" cy="24" r="18" stroke="currentColor" strokeWidth="4" />
      <circle
        cx="70"
        cy="24"
        r="18"
        stroke="currentColor"
        strokeWidth="4"
        strokeOpacity="0.45"
        strokeDasharray="6 7"
        strokeLinecap="round"
      />
    </svg>
  )
}

/**
 * The 404 block: picture, code, a title, the spec's text "The page you're looking for doesn't exist."
 * and one way back. Used by the not-found page and by screens whose record is missing.
 */
export function NotFoundMessage({
  title,
  hint,
  action,
}: {
  title: string
  hint?: string
  action: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <div className="flex max-w-md flex-col items-center gap-4 text-center">
      <LostCircles />
      <p className="font-mono text-xs text-fg-subtle">{t('notFound.code')}</p>
      <div className="mb-2 flex flex-col gap-3">
        <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">{title}</h1>
        <p className="text-base text-balance text-fg">{t('notFound.message')}</p>
        {hint && <p className="text-sm text-fg-muted">{hint}</p>}
      </div>
      {action}
    </div>
  )
}

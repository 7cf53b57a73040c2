import { useEffect, useState } from 'react'
import { ArrowLeftRight, CircleDashed, Package, UsersRound, type LucideIcon } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Navigate } from 'react-router'
import { Badge } from '@/components/ui/badge'
import { Card } from '@/components/ui/card'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useSession } from '@/lib/use-session'
import { invitationEmail, pendingInvitationToken } from '@/lib/session'

const NEXT_STEPS: ReadonlyArray<{ key: 'circle' | 'items' | 'handover'; icon: LucideIcon }> = [
  { key: 'circle', icon: UsersRound },
  { key: 'items', icon: Package },
  { key: 'handover', icon: ArrowLeftRight },
]

/** Placeholder until the dashboard issue: greets the user and says what will live here. */
/** Spec 000 §2: an invitation still waiting from before sign-in wins over the dashboard. */
export function DashboardPage() {
  const [pendingToken] = useState(() => pendingInvitationToken.get())
  useEffect(() => {
    if (!pendingToken) return
    pendingInvitationToken.clear()
    invitationEmail.clear()
  }, [pendingToken])
  if (pendingToken) return <Navigate to={`/join?token=${encodeURIComponent(pendingToken)}`} replace />
  return <Dashboard />
}

function Dashboard() {
  const { t } = useTranslation('dashboard')
  const { user } = useSession()
  useDocumentTitle(t('documentTitle'))

  return (
    <main id="main-content" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-12">
      <div className="flex flex-col gap-8">
        <div className="flex flex-col gap-2">
          <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">
            {user?.name ? t('heading', { name: user.name }) : t('headingAnonymous')}
          </h1>
          <p className="max-w-[60ch] text-fg-muted">{t('intro')}</p>
        </div>

        <Card className="flex flex-col items-center gap-4 border-dashed px-6 py-10 text-center shadow-none sm:py-14">
          <span className="inline-flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent-text">
            <CircleDashed className="size-6" aria-hidden="true" />
          </span>
          <div className="flex flex-col items-center gap-2">
            <Badge tone="accent">{t('empty.badge')}</Badge>
            <h2 className="text-lg font-semibold tracking-tight">{t('empty.title')}</h2>
            <p className="max-w-[56ch] text-sm text-fg-muted">{t('empty.body')}</p>
          </div>
          <div className="mt-2 w-full max-w-md text-start">
            <h3 className="mb-2 text-xs font-semibold tracking-wide text-fg-subtle uppercase">
              {t('empty.stepsTitle')}
            </h3>
            <ol className="flex flex-col gap-2">
              {NEXT_STEPS.map(({ key, icon: Icon }) => (
                <li
                  key={key}
                  className="flex items-center gap-3 rounded-md border border-border bg-surface-2 px-3 py-2.5 text-sm text-fg"
                >
                  <Icon className="size-4 shrink-0 text-accent-text" aria-hidden="true" />
                  {t(`empty.steps.${key}`)}
                </li>
              ))}
            </ol>
          </div>
        </Card>
      </div>
    </main>
  )
}

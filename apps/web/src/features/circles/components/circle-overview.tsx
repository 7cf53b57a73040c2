import type { TCircleDetail, TCircleRole } from '@circles/shared'
import { Pencil, UsersRound } from 'lucide-react'
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { CircleDate } from './circle-date'
import { RoleBadge } from './role-badge'
import { PartLoader } from '@/components/part-loader'

// The edit form (and its form library) loads when Edit is chosen, not with the circle page (issue 27).
const CircleEditForm = lazy(() => import('./circle-edit-form').then((m) => ({ default: m.CircleEditForm })))

interface CircleOverviewProps {
  circle: TCircleDetail
  /** The viewer's role in this circle. */
  role: TCircleRole
}

/** Name, description and created date; for the admin, an Edit button that swaps in the inline form. */
export function CircleOverview({ circle, role }: CircleOverviewProps) {
  const { t } = useTranslation('circles')
  const [editing, setEditing] = useState(false)
  const editButton = useRef<HTMLButtonElement>(null)
  const returnFocus = useRef(false)
  const isAdmin = role === 'ADMIN'

  // Back from the form, the keyboard continues where it left off: on the Edit button.
  useEffect(() => {
    if (!editing && returnFocus.current) {
      returnFocus.current = false
      editButton.current?.focus()
    }
  }, [editing])

  if (editing && isAdmin) {
    return (
      <Suspense fallback={<PartLoader />}>
        <CircleEditForm
          circle={circle}
          onDone={() => {
            returnFocus.current = true
            setEditing(false)
          }}
        />
      </Suspense>
    )
  }

  return (
    <section aria-labelledby="circle-title" className="flex flex-col gap-4 sm:flex-row sm:items-start">
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <h1
            id="circle-title"
            className="min-w-0 text-xl font-semibold tracking-tight break-words sm:text-2xl"
          >
            {circle.name}
          </h1>
          <RoleBadge role={role} />
        </div>
        {circle.description ? (
          <p className="max-w-[72ch] text-base whitespace-pre-line text-fg-muted">{circle.description}</p>
        ) : (
          <p className="text-base text-fg-subtle italic">{t('detail.noDescription')}</p>
        )}
        <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-fg-muted">
          <CircleDate iso={circle.createdAt} kind="created" />
          <span className="inline-flex items-center gap-1.5">
            <UsersRound aria-hidden="true" className="size-4" />
            {t('list.members', { count: circle.users.length })}
          </span>
        </p>
      </div>
      {isAdmin ? (
        <Button
          ref={editButton}
          variant="secondary"
          icon={<Pencil aria-hidden="true" />}
          aria-label={t('detail.editLabel')}
          onClick={() => setEditing(true)}
          className="self-start"
        >
          {t('detail.edit')}
        </Button>
      ) : null}
    </section>
  )
}

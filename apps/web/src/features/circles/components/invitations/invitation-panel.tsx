import { X } from 'lucide-react'
import { useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'

interface InvitationPanelProps {
  title: string
  description: string
  onClose(): void
  children: ReactNode
}

/** One of the two invite panels: a titled region with a close button; Escape closes it too. */
export function InvitationPanel({ title, description, onClose, children }: InvitationPanelProps) {
  const { t } = useTranslation('invitations')
  const titleId = useId()
  const descriptionId = useId()
  return (
    <section
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && !event.defaultPrevented) {
          event.preventDefault()
          onClose()
        }
      }}
      className="rounded-md border border-border bg-surface-2 p-4 sm:p-5"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 id={titleId} className="text-base font-semibold tracking-tight text-fg">
            {title}
          </h3>
          <p id={descriptionId} className="mt-1 max-w-[60ch] text-sm text-fg-muted">
            {description}
          </p>
        </div>
        <Button
          variant="ghost"
          size="icon"
          className="-mt-2 -mr-2 max-sm:size-11"
          aria-label={t('admin.close')}
          icon={<X aria-hidden="true" />}
          onClick={onClose}
        />
      </div>
      <div className="mt-4">{children}</div>
    </section>
  )
}

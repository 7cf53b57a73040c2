import { cn } from '@/lib/class-names'
import { initials } from '../lib/initials'

/** Initials in a soft circle; decorative, since the name is always written beside it. */
export function MemberAvatar({ name, highlighted = false }: { name: string; highlighted?: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex size-10 shrink-0 items-center justify-center rounded-full text-sm font-semibold select-none',
        highlighted ? 'bg-accent text-accent-fg' : 'bg-accent-soft text-accent-text',
      )}
    >
      {initials(name)}
    </span>
  )
}

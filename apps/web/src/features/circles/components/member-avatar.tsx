import { UserAvatar } from '@/components/user-avatar'
import { cn } from '@/lib/class-names'

/** The member's picture or initials in a soft circle; decorative, since the name is always written beside it. */
export function MemberAvatar({
  name,
  avatarUrl,
  highlighted = false,
}: {
  name: string
  avatarUrl?: string | null
  highlighted?: boolean
}) {
  return (
    <UserAvatar
      name={name}
      avatarUrl={avatarUrl}
      className={cn(
        'size-10 text-sm',
        highlighted ? 'bg-accent text-accent-fg ring-2 ring-accent' : 'bg-accent-soft text-accent-text',
      )}
    />
  )
}

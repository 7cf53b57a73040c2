import { useState } from 'react'
import { cn } from '@/lib/class-names'
import { initials } from '@/lib/initials'
import { usePrivatePicture } from './private-image'

/**
 * A person's avatar (docs/decisions/0037): their picture, fetched with the session (members only),
 * else, while it loads or when it cannot be shown, their initials. Decorative: the name is always
 * written beside it or in its link's label. `className` sizes it and colours the initials.
 */
export function UserAvatar({
  name,
  avatarUrl,
  className,
}: {
  name: string
  avatarUrl?: string | null
  className?: string
}) {
  const picture = usePrivatePicture(avatarUrl ?? null)
  const [brokenUrl, setBrokenUrl] = useState<string | null>(null)
  const frame = 'inline-flex shrink-0 items-center justify-center rounded-full select-none'
  if (avatarUrl && picture.data && picture.data !== brokenUrl) {
    const shown = picture.data
    return (
      <img
        src={shown}
        alt=""
        aria-hidden="true"
        data-avatar="picture"
        className={cn(frame, 'object-cover', className)}
        onError={() => setBrokenUrl(shown)}
      />
    )
  }
  return (
    <span aria-hidden="true" data-avatar="initials" className={cn(frame, 'font-semibold', className)}>
      {initials(name)}
    </span>
  )
}

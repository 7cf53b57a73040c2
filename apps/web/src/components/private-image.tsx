import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query'
import { ImageOff, Package } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '@/lib/class-names'
import { getSession } from '@/lib/session'

/** Paths with /uploads/ (older clients, spec 001 §7) are read as the image path. */
export function imagePath(url: string): string {
  const uploads = url.indexOf('/uploads/')
  return uploads >= 0 ? `/api/items/image/${url.slice(uploads + '/uploads/'.length)}` : url
}

async function fetchPicture(url: string, signal: AbortSignal): Promise<string> {
  const { token } = getSession()
  const response = await fetch(imagePath(url), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    signal,
  })
  if (!response.ok) throw new Error(`image ${response.status}`)
  return URL.createObjectURL(await response.blob())
}

const IMAGE_KEY = 'private-image'
const watched = new WeakSet<QueryClient>()

/** A picture's blob URL lives as long as its query: freed when react-query drops it from the cache. */
function releaseBlobUrlsOnRemoval(queryClient: QueryClient) {
  if (watched.has(queryClient)) return
  watched.add(queryClient)
  queryClient.getQueryCache().subscribe((event) => {
    const { queryKey, state } = event.query
    if (event.type === 'removed' && queryKey[0] === IMAGE_KEY && typeof state.data === 'string') {
      URL.revokeObjectURL(state.data)
    }
  })
}

/**
 * A members-only picture's blob URL (`data`), fetched once per URL with the session's token and kept
 * while shown; a new URL (a replaced picture) is a new fetch. Also for avatars (`user-avatar.tsx`).
 */
export function usePrivatePicture(url: string | null) {
  const queryClient = useQueryClient()
  releaseBlobUrlsOnRemoval(queryClient)
  return useQuery({
    queryKey: [IMAGE_KEY, url],
    queryFn: ({ signal }) => fetchPicture(url!, signal),
    enabled: Boolean(url),
    staleTime: Infinity,
    retry: 1,
  })
}

/**
 * A picture only members may see (an item's): the browser cannot load it by URL, so the bytes come with
 * the bearer token and show as a blob URL. No picture: a calm icon. A picture that cannot be fetched:
 * 'Image not available'.
 */
export function PrivateImage({
  url,
  alt,
  className,
}: {
  url: string | null
  alt: string
  className?: string
}) {
  const { t } = useTranslation()
  const picture = usePrivatePicture(url)
  const [brokenUrl, setBrokenUrl] = useState<string | null>(null)

  const frame = cn('flex items-center justify-center overflow-hidden bg-surface-2 text-fg-subtle', className)
  if (!url || (picture.data && brokenUrl === picture.data)) {
    return (
      <div className={frame} aria-hidden="true">
        <Package className="size-8" />
      </div>
    )
  }
  if (picture.isError) {
    return (
      <div className={cn(frame, 'flex-col gap-1 text-xs')}>
        <ImageOff aria-hidden="true" className="size-6" />
        {t('imageNotAvailable')}
      </div>
    )
  }
  if (!picture.data) {
    // A decorative picture (alt="") stays silent while it loads, too.
    const named = alt ? { role: 'img', 'aria-label': alt, 'aria-busy': true } : { 'aria-hidden': true }
    return <div className={cn(frame, 'animate-pulse')} {...named} />
  }
  const shown = picture.data
  return (
    <img
      src={picture.data}
      alt={alt}
      className={cn('object-cover', className)}
      onError={() => setBrokenUrl(shown)}
    />
  )
}

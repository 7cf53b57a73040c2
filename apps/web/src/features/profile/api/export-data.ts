import { api, type DownloadedFile } from '@/lib/api-client'
import { useGuardedMutation } from '@/lib/use-guarded-mutation'

/** The server's name for the file is the one to keep; this only stands in if a proxy dropped it. */
const fallbackName = () => `circles-data-${new Date().toISOString().slice(0, 10)}.zip`

/** GET /api/users/me/export: the signed-in person's data as a ZIP file (docs/decisions/0038). */
export async function fetchMyData(): Promise<DownloadedFile> {
  return api.file('/users/me/export')
}

/** Hands the file to the browser's downloads, as a click on a link with `download` would. */
export function saveFile({ blob, fileName }: DownloadedFile): string {
  const name = fileName ?? fallbackName()
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
  // The download has taken the bytes by the next task; the URL would otherwise keep them in memory.
  setTimeout(() => URL.revokeObjectURL(url), 0)
  return name
}

/**
 * 'Download my data': one request at a time, here or anywhere in the app (it is expensive and counted;
 * a second press would only spend one of the hour's few downloads).
 */
export function useDownloadMyData() {
  return useGuardedMutation({
    mutationKey: ['data-export'],
    mutationFn: async () => saveFile(await fetchMyData()),
  })
}

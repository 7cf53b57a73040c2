import { api } from '@/lib/api-client'

const base = (circleId: string) => `/ledger/${encodeURIComponent(circleId)}`

/** Saves the circle's log export (JSON lines) as a file, for `npx circles-ledger verify`. */
export async function downloadExport(circleId: string): Promise<void> {
  const text = await api.text(`${base(circleId)}/export`)
  saveFile(`circle-${circleId}.jsonl`, text, 'application/x-ndjson')
}

/** Offers `text` as a download named `name`. */
export function saveFile(name: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

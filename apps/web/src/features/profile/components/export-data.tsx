import type { TUser } from '@circles/shared'

/** 'Download my data' (issue 24, GDPR Art. 20). Being built: renders nothing yet. */
export function ExportData(_props: { user: TUser }) {
  return null
}

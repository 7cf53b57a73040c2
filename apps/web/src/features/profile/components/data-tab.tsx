import type { TUser } from '@circles/shared'
import { DeleteAccount } from './delete-account'
import { ExportData } from './export-data'

/** Tab 'Your data' (issue 24): take a copy of everything (GDPR Art. 20), or leave for good (Art. 17). */
export function DataTab({ user }: { user: TUser }) {
  return (
    <div className="flex flex-col gap-6">
      <ExportData user={user} />
      <DeleteAccount user={user} />
    </div>
  )
}

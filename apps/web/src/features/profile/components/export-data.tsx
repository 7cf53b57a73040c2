import type { TUser } from '@circles/shared'
import { Download } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardDescription, CardTitle } from '@/components/ui/card'
import { failureMessage } from '@/lib/server-errors'
import { useDownloadMyData } from '../api/export-data'

/** What the download holds, in the order the card lists it (keys under export.contents). */
const CONTENTS = ['profile', 'circles', 'items', 'handovers', 'ledger', 'activity'] as const

/**
 * 'Download my data' (issue 24, GDPR Art. 20; docs/decisions/0038): a ZIP file of everything the
 * account holds, fetched with the session and handed to the browser's downloads.
 */
export function ExportData(_props: { user: TUser }) {
  const { t } = useTranslation('profile')
  const download = useDownloadMyData()

  return (
    <Card className="flex flex-col gap-5 p-5 sm:p-6">
      <div>
        <CardTitle>{t('export.title')}</CardTitle>
        <CardDescription>{t('export.intro')}</CardDescription>
      </div>
      <ul className="flex list-disc flex-col gap-1.5 pl-5 text-sm text-fg">
        {CONTENTS.map((part) => (
          <li key={part}>{t(`export.contents.${part}`)}</li>
        ))}
      </ul>
      <p className="text-sm text-fg-muted">{t('export.format')}</p>
      {download.isError ? (
        <Alert tone="error">{failureMessage(download.error, t('export.failed'))}</Alert>
      ) : null}
      {download.isSuccess ? (
        <Alert tone="success">{t('export.started', { file: download.data })}</Alert>
      ) : null}
      <div>
        <Button
          icon={<Download aria-hidden="true" />}
          loading={download.isPending}
          onClick={() => download.mutate()}
        >
          {download.isPending ? t('export.preparing') : t('export.button')}
        </Button>
      </div>
    </Card>
  )
}

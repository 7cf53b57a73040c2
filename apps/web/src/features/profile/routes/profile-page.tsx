import { LogIn } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/button'
import { Card } from '@/components/ui/card'
import { Tabs } from '@/components/ui/tabs'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useSession } from '@/lib/use-session'
import { CalendarFeed } from '../components/calendar-feed'
import { DataTab } from '../components/data-tab'
import { DevicePush } from '../components/device-push'
import { NoticePreferences } from '../components/notice-preferences'
import { ProfileInfo } from '../components/profile-info'
import { SecurityAccess } from '../components/security-access'

type Tab = 'info' | 'security' | 'data'

/**
 * /profile (spec 001 §2): the spec's two tabs and 'Your data' (issue 24: export, deletion); signed out, a
 * note and the way to sign in.
 */
export function ProfilePage() {
  const { t } = useTranslation('profile')
  const { user } = useSession()
  const [tab, setTab] = useState<Tab>('info')
  useDocumentTitle(t('documentTitle'))

  return (
    <main id="main-content" className="mx-auto w-full max-w-3xl flex-1 px-4 py-8 sm:px-6 sm:py-12">
      {user ? (
        <div className="flex flex-col gap-6">
          <div className="flex flex-col gap-2">
            <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">{t('title')}</h1>
            <p className="text-fg-muted">{t('intro')}</p>
          </div>
          <Tabs<Tab>
            label={t('tabs.label')}
            selected={tab}
            onSelect={setTab}
            items={[
              {
                key: 'info',
                label: t('tabs.info'),
                panel: (
                  <div className="flex flex-col gap-6">
                    <ProfileInfo user={user} />
                    <NoticePreferences />
                    <DevicePush />
                    <CalendarFeed />
                  </div>
                ),
              },
              { key: 'security', label: t('tabs.security'), panel: <SecurityAccess user={user} /> },
              { key: 'data', label: t('tabs.data'), panel: <DataTab user={user} /> },
            ]}
          />
        </div>
      ) : (
        <Card className="mx-auto flex max-w-md flex-col items-center gap-4 px-6 py-10 text-center">
          <h1 className="text-lg font-semibold tracking-tight">{t('signedOut')}</h1>
          <Link to="/login?returnUrl=%2Fprofile" className={buttonClasses()}>
            <LogIn aria-hidden="true" />
            {t('login')}
          </Link>
        </Card>
      )}
    </main>
  )
}

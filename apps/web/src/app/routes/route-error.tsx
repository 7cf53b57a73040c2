import { RotateCw } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Button, buttonClasses } from '@/components/ui/button'
import { LogoMark } from '@/components/ui/logo'
import { useDocumentTitle } from '@/lib/use-document-title'

/**
 * Anything a route throws while loading or rendering, most often a chunk that no longer exists after a
 * deploy; a reload fetches the new build.
 */
export function RouteError() {
  const { t } = useTranslation()
  useDocumentTitle(`${t('routeError.title')} · Circles`)

  return (
    <main
      id="main-content"
      className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-6 px-6 text-center"
    >
      <LogoMark className="size-12" />
      <div className="flex flex-col gap-2">
        <h1 className="text-xl font-semibold tracking-tight">{t('routeError.title')}</h1>
        <p className="text-fg-muted">{t('routeError.message')}</p>
      </div>
      <div className="flex flex-wrap justify-center gap-3">
        <Button icon={<RotateCw aria-hidden="true" />} onClick={() => window.location.reload()}>
          {t('actions.reload')}
        </Button>
        <Link to="/" reloadDocument className={buttonClasses({ variant: 'secondary' })}>
          {t('actions.backHome')}
        </Link>
      </div>
    </main>
  )
}

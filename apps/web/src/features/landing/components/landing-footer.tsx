import { useTranslation } from 'react-i18next'
import { LogoMark } from '@/components/ui/logo'

export function LandingFooter() {
  const { t } = useTranslation()

  return (
    <footer className="border-t border-border">
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-2 px-4 py-8 text-sm text-fg-muted sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p className="inline-flex items-center gap-2">
          <LogoMark className="size-5" />
          {t('footer.copyright', { year: new Date().getFullYear() })}
        </p>
        <p>{t('footer.tagline')}</p>
      </div>
    </footer>
  )
}

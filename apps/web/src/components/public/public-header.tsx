import { LogIn } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Badge } from '@/components/ui/badge'
import { buttonClasses } from '@/components/ui/button'
import { Logo } from '@/components/ui/logo'
import { setLanguage, type Language } from '@/lib/i18n'
import type { ChromeLabels } from './chrome-labels'
import { LanguageButtons } from './language-buttons'

/** The SPA switches in place; setLanguage also writes the cookie the server picks prerendered pages by. */
function switchLanguage(language: Language): void {
  void setLanguage(language)
}

/** Header of the public text pages and the contact page: home, language, log in, get started. */
export function PublicHeader({ labels }: { labels: ChromeLabels }) {
  const { i18n } = useTranslation()

  return (
    <header className="sticky top-0 z-40 border-b border-border bg-surface/90 backdrop-blur">
      <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-3 px-4 sm:px-6">
        {/* The badge stays outside the link: its name ("Circles home") then contains all its visible text. */}
        <div className="flex shrink-0 items-center gap-2">
          <Link to="/" aria-label={labels.home} className="rounded-md">
            <Logo />
          </Link>
          <Badge tone="accent">{labels.beta}</Badge>
        </div>
        <div className="ms-auto flex items-center gap-2 sm:gap-3">
          <LanguageButtons
            current={i18n.resolvedLanguage ?? i18n.language}
            labels={labels}
            onSelect={switchLanguage}
          />
          <Link
            to="/login"
            aria-label={labels.login}
            title={labels.login}
            className={buttonClasses({ variant: 'ghost', size: 'icon', className: 'sm:hidden' })}
          >
            <LogIn aria-hidden="true" className="rtl:rotate-180" />
          </Link>
          <div className="hidden items-center gap-2 sm:flex">
            <Link to="/login" className={buttonClasses({ variant: 'ghost' })}>
              {labels.login}
            </Link>
            <Link to="/register" className={buttonClasses({ variant: 'primary' })}>
              {labels.getStarted}
            </Link>
          </div>
        </div>
      </div>
    </header>
  )
}

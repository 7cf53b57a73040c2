import { useTranslation } from 'react-i18next'
import { PublicLayout } from '@/components/public/public-layout'
import { useDocumentTitle } from '@/lib/use-document-title'
import { ContactDetails } from '../components/contact-details'
import { ContactForm } from '../components/contact-form'

/** /contact (spec 000 §2). */
export function ContactPage() {
  const { t } = useTranslation('contact')
  useDocumentTitle(t('documentTitle'))

  return (
    <PublicLayout namespace="contact">
      <div className="mx-auto grid w-full max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[1fr_1.5fr] lg:gap-x-16 lg:gap-y-10 lg:py-16">
        <header className="flex flex-col gap-4 lg:col-start-1 lg:row-start-1">
          <p className="text-sm font-semibold text-accent-text">{t('eyebrow')}</p>
          <h1 className="text-xl font-semibold tracking-tight text-balance sm:text-2xl">{t('title')}</h1>
          <p className="text-base text-pretty text-fg-muted">{t('intro')}</p>
        </header>
        {/* On phones the form comes right after the intro; on wide screens it sits beside both. */}
        <div className="self-start rounded-xl border border-border bg-surface p-5 shadow-sm sm:p-8 lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <ContactForm />
        </div>
        <div className="lg:col-start-1 lg:row-start-2">
          <ContactDetails />
        </div>
      </div>
    </PublicLayout>
  )
}

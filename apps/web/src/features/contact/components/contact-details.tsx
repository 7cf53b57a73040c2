import { Building2, Clock, type LucideIcon, Mail, MapPin } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useContactEmail } from '@/components/public/use-contact-email'

function Detail({ icon: Icon, term, children }: { icon: LucideIcon; term: string; children: ReactNode }) {
  return (
    <div className="relative min-h-10 ps-14">
      <dt className="text-sm font-semibold text-fg">
        <span className="absolute start-0 top-0 inline-flex size-10 items-center justify-center rounded-md bg-accent-soft text-accent-text">
          <Icon className="size-5" aria-hidden="true" />
        </span>
        {term}
      </dt>
      <dd className="mt-0.5 text-sm text-fg-muted">{children}</dd>
    </div>
  )
}

/** Email, the postal address in Germany (spec 000 §2), response time and a word for Enterprise. */
export function ContactDetails() {
  const { t } = useTranslation('contact')
  const email = useContactEmail()
  const addressLines = t('details.addressLines', { returnObjects: true }) as string[]

  return (
    <section aria-labelledby="contact-details-heading" className="flex flex-col gap-6">
      <h2 id="contact-details-heading" className="text-base font-semibold text-fg">
        {t('details.heading')}
      </h2>
      <dl className="flex flex-col gap-6">
        <Detail icon={Mail} term={t('details.email')}>
          <a
            href={`mailto:${email}`}
            className="font-medium break-words text-accent-text underline decoration-accent/40 underline-offset-4 hover:decoration-accent"
          >
            {email}
          </a>
        </Detail>
        <Detail icon={MapPin} term={t('details.address')}>
          <address className="not-italic">
            {addressLines.map((line) => (
              <span key={line} className="block">
                {line}
              </span>
            ))}
          </address>
        </Detail>
        <Detail icon={Clock} term={t('details.response')}>
          {t('details.responseBody')}
        </Detail>
        <Detail icon={Building2} term={t('details.enterprise')}>
          {t('details.enterpriseBody')}
        </Detail>
      </dl>
    </section>
  )
}

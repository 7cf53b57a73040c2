import { CalendarDays, Mail } from 'lucide-react'
import { Trans, useTranslation } from 'react-i18next'
import { PublicLayout } from '@/components/public/public-layout'
import { useContactEmail } from '@/components/public/use-contact-email'
import { useDocumentTitle } from '@/lib/use-document-title'
import { formatLegalDate, LEGAL_LAST_UPDATED } from '../legal-date'
import { WithEmail } from './with-email'

export interface LegalSection {
  id: string
  heading: string
  paragraphs: string[]
  items?: string[]
  after?: string[]
}

/** Items that open with a short label ("Server logs: 14 days.") show the label in bold, for skimming. */
function LabelledItem({ text, email }: { text: string; email: string }) {
  const colon = text.indexOf(': ')
  if (colon <= 0 || colon > 60) return <WithEmail text={text} email={email} />
  return (
    <>
      <strong className="font-semibold">{text.slice(0, colon + 1)}</strong>{' '}
      <WithEmail text={text.slice(colon + 2)} email={email} />
    </>
  )
}

/** The privacy policy and the terms: same structure, different text (spec 000 §2). */
export function LegalPage({ document: doc }: { document: 'privacy' | 'terms' }) {
  const { t, i18n } = useTranslation('pages')
  const email = useContactEmail()
  useDocumentTitle(t(`${doc}.documentTitle`))

  const sections = t(`${doc}.sections`, { returnObjects: true }) as LegalSection[]
  const language = i18n.resolvedLanguage ?? i18n.language
  const date = formatLegalDate(LEGAL_LAST_UPDATED, language)

  return (
    <PublicLayout namespace="pages">
      <div className="mx-auto w-full max-w-6xl px-4 py-12 sm:px-6 lg:py-16">
        <header className="flex max-w-[72ch] flex-col gap-4 border-b border-border pb-8">
          <p className="text-sm font-semibold text-accent-text">{t(`${doc}.eyebrow`)}</p>
          <h1 className="text-xl font-semibold tracking-tight text-balance sm:text-2xl">
            {t(`${doc}.title`)}
          </h1>
          <p className="text-base text-pretty text-fg-muted sm:text-lg">{t(`${doc}.intro`)}</p>
          <p className="inline-flex items-center gap-2 text-sm text-fg-muted">
            <CalendarDays className="size-4 shrink-0" aria-hidden="true" />
            <span>
              <Trans
                t={t}
                i18nKey="lastUpdated"
                values={{ date }}
                components={{ time: <time dateTime={LEGAL_LAST_UPDATED} className="font-medium text-fg" /> }}
              />
            </span>
          </p>
        </header>

        <div className="mt-10 grid gap-12 lg:grid-cols-[minmax(0,72ch)_1fr] lg:gap-16">
          <article className="flex min-w-0 flex-col gap-10">
            {sections.map((section) => (
              <section
                key={section.id}
                id={section.id}
                aria-labelledby={`${section.id}-heading`}
                className="scroll-mt-24"
              >
                <h2 id={`${section.id}-heading`} className="text-lg font-semibold tracking-tight text-fg">
                  {section.heading}
                </h2>
                <div className="mt-3 flex flex-col gap-4 text-base leading-7 text-fg">
                  {section.paragraphs.map((paragraph) => (
                    <p key={paragraph}>
                      <WithEmail text={paragraph} email={email} />
                    </p>
                  ))}
                  {section.items ? (
                    <ul className="flex list-disc flex-col gap-2 ps-6 marker:text-fg-subtle">
                      {section.items.map((item) => (
                        <li key={item} className="ps-1">
                          <LabelledItem text={item} email={email} />
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  {section.after?.map((paragraph) => (
                    <p key={paragraph}>
                      <WithEmail text={paragraph} email={email} />
                    </p>
                  ))}
                </div>
              </section>
            ))}
          </article>

          <aside className="hidden lg:block">
            <div className="sticky top-24 flex flex-col gap-6">
              <nav aria-label={t('onThisPage')} className="flex flex-col gap-3">
                <h2 className="text-xs font-semibold tracking-wide text-fg-subtle uppercase">
                  {t('onThisPage')}
                </h2>
                <ol className="flex flex-col gap-1 border-s border-border">
                  {sections.map((section) => (
                    <li key={section.id}>
                      <a
                        href={`#${section.id}`}
                        className="-ms-px block border-s border-transparent py-1 ps-4 text-sm text-fg-muted transition-colors duration-150 hover:border-fg-subtle hover:text-fg"
                      >
                        {section.heading}
                      </a>
                    </li>
                  ))}
                </ol>
              </nav>
              <p className="flex items-start gap-2 rounded-lg border border-border bg-surface p-4 text-sm text-fg-muted">
                <Mail className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <span>
                  <WithEmail text={t('questions')} email={email} />
                </span>
              </p>
            </div>
          </aside>
        </div>
      </div>
    </PublicLayout>
  )
}

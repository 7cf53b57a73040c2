import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@/test/testing-library'
import type { ReactNode } from 'react'
import { MemoryRouter } from 'react-router'
import { beforeAll, describe, expect, it } from 'vitest'
import { i18n, initI18n, loadNamespaces } from '@/lib/i18n'
import { formatLegalDate, LEGAL_LAST_UPDATED } from './legal-date'
import { AboutPage } from './routes/about-page'
import { PrivacyPage } from './routes/privacy-page'
import { TermsPage } from './routes/terms-page'

const CONTACT_EMAIL = 'privacy@circles.test'

beforeAll(async () => {
  // What the server puts into every page it serves (lib/runtime-config.ts reads it once).
  const meta = document.createElement('meta')
  meta.name = 'circles-config'
  meta.content = JSON.stringify({ contactEmail: CONTACT_EMAIL, staging: false })
  document.head.append(meta)
  await initI18n('en')
  await loadNamespaces('pages')
})

async function renderPage(page: ReactNode, language: 'en' | 'de' = 'en') {
  await i18n.changeLanguage(language)
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>{page}</MemoryRouter>
    </QueryClientProvider>,
  )
}

describe('formatLegalDate', () => {
  it('writes the date as each language does', () => {
    expect(LEGAL_LAST_UPDATED).toBe('2023-05-20')
    expect(formatLegalDate(LEGAL_LAST_UPDATED, 'en')).toBe('May 20, 2023')
    expect(formatLegalDate(LEGAL_LAST_UPDATED, 'de')).toBe('20. Mai 2023')
  })
})

describe.each([
  ['privacy', <PrivacyPage key="privacy" />, 'Privacy policy', 'Datenschutzerklärung'],
  ['terms', <TermsPage key="terms" />, 'Terms of service', 'Nutzungsbedingungen'],
])('the %s page (spec 000 §2)', (_name, page, englishTitle, germanTitle) => {
  it('shows the last-updated date, the contact email and the under-13 and 30-day clauses', async () => {
    const { container } = await renderPage(page)
    expect(screen.getByRole('heading', { level: 1, name: englishTitle })).toBeTruthy()
    const time = container.querySelector('time')!
    expect(time.getAttribute('datetime')).toBe('2023-05-20')
    expect(time.parentElement!.textContent).toBe('Last updated: May 20, 2023')
    const mail = screen.getAllByRole('link', { name: CONTACT_EMAIL })
    expect(mail.length).toBeGreaterThan(0)
    expect(mail[0]!.getAttribute('href')).toBe(`mailto:${CONTACT_EMAIL}`)
    const text = screen.getByRole('main').textContent!
    expect(text).toMatch(/children under 13/)
    expect(text).toMatch(/at least 30 days before/)
    expect(text).not.toContain('{email}')
  })

  it('is in German too', async () => {
    const { container } = await renderPage(page, 'de')
    expect(screen.getByRole('heading', { level: 1, name: germanTitle })).toBeTruthy()
    expect(container.querySelector('time')!.parentElement!.textContent).toBe(
      'Zuletzt aktualisiert: 20. Mai 2023',
    )
    const text = screen.getByRole('main').textContent!
    expect(text).toMatch(/Kinder(n)? unter 13 Jahren/)
    expect(text).toMatch(/mindestens 30 Tage, bevor/)
    expect(screen.getAllByRole('link', { name: CONTACT_EMAIL }).length).toBeGreaterThan(0)
  })
})

describe('the about page', () => {
  it('has one h1, the skip-link target and the sections of the brief', async () => {
    await renderPage(<AboutPage />)
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    expect(screen.getByRole('main').id).toBe('main-content')
    for (const name of [
      'Our mission',
      'How the ledger builds trust',
      'A small team in Berlin',
      /Circles is in Beta/,
    ]) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeTruthy()
    }
    const starts = screen
      .getAllByRole('link', { name: /Get started/ })
      .map((link) => link.getAttribute('href'))
    expect(new Set(starts)).toEqual(new Set(['/register']))
  })
})

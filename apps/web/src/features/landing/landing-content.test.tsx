import { LIMITS } from '@circles/shared'
import { render, screen, within } from '@/test/testing-library'
import { beforeAll, describe, expect, it } from 'vitest'
import { i18n, initI18n, loadNamespaces } from '@/lib/i18n'
import { FAQ_KEYS } from './components/faq'
import { HomePage } from './routes/home-page'

beforeAll(async () => {
  await initI18n('en')
  await loadNamespaces('landing')
})

async function renderIn(language: 'en' | 'de') {
  await i18n.changeLanguage(language)
  return render(<HomePage />)
}

function planFeatures(name: string): string[] {
  const plan = screen.getByRole('article', { name })
  return within(plan)
    .getAllByRole('listitem')
    .map((item) => item.textContent)
}

describe('landing page content (spec 000 §1-2)', () => {
  it('has exactly LIMITS.faqEntries FAQ entries, as native disclosure widgets', async () => {
    expect(FAQ_KEYS).toHaveLength(LIMITS.faqEntries)
    const { container } = await renderIn('en')
    const faq = container.querySelector('#faq')!
    expect(faq.querySelectorAll('details')).toHaveLength(LIMITS.faqEntries)
    expect(faq.querySelectorAll('details > summary')).toHaveLength(LIMITS.faqEntries)
  })

  it('shows the two plans with exactly their features, in English', async () => {
    await renderIn('en')
    const pricing = document.getElementById('pricing')!
    expect(within(pricing).getAllByRole('article')).toHaveLength(2)
    expect(planFeatures('Personal')).toEqual([
      '2 circles',
      '11 members',
      '10 items',
      'Blockchain-style records',
      'Community support',
      'Basic security',
    ])
    expect(within(screen.getByRole('article', { name: 'Personal' })).getByText('Free forever')).toBeTruthy()
    expect(planFeatures('Enterprise')).toEqual([
      'Unlimited circles',
      'Unlimited members',
      'Unlimited items',
      '24/7 premium support',
      'Advanced security',
      'Custom integrations',
      'A dedicated account manager',
    ])
    expect(
      within(screen.getByRole('article', { name: 'Enterprise' })).getByText('Custom pricing'),
    ).toBeTruthy()
    const enterpriseCta = within(screen.getByRole('article', { name: 'Enterprise' })).getByRole('link')
    expect(enterpriseCta.getAttribute('href')).toBe('/contact')
    const personalCta = within(screen.getByRole('article', { name: 'Personal' })).getByRole('link')
    expect(personalCta.getAttribute('href')).toBe('/register')
  })

  it('shows the plans in German too', async () => {
    await renderIn('de')
    expect(planFeatures('Personal').slice(0, 3)).toEqual(['2 Kreise', '11 Mitglieder', '10 Gegenstände'])
    expect(screen.getByText('Für immer kostenlos')).toBeTruthy()
    expect(screen.getByText('Individueller Preis')).toBeTruthy()
    await i18n.changeLanguage('en')
  })

  it('marks the reputation feature as Coming Soon', async () => {
    await renderIn('en')
    expect(screen.getByRole('heading', { level: 3, name: /Reputation/ }).textContent).toContain('Coming Soon')
  })

  it('names the three problems it solves: lost items, trust, missing documentation', async () => {
    await renderIn('en')
    for (const title of ['Things go missing', 'Trust gets strained', 'Nothing is documented']) {
      expect(screen.getByRole('heading', { level: 3, name: title })).toBeTruthy()
    }
  })

  it('has one h1, a main landmark with the skip-link target, and a footer with the company and legal links', async () => {
    await renderIn('en')
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1)
    expect(screen.getByRole('main').id).toBe('main-content')
    const footer = screen.getByRole('contentinfo')
    const hrefs = within(footer)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'))
    expect(hrefs).toEqual(expect.arrayContaining(['/about', '/contact', '#', '/privacy', '/terms']))
    expect(within(footer).getByRole('button', { name: 'Cookie preferences' })).toBeTruthy()
    expect(within(footer).getByText(`© ${new Date().getFullYear()} Circles GmbH`)).toBeTruthy()
  })
})

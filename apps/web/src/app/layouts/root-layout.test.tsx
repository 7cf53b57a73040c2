import { QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor, within } from '@/test/testing-library'
import { describe, expect, it, vi } from 'vitest'
import { PAGES_WITH_OWN_CHROME } from '@/lib/shell-rules'
import { AppRoutes } from '@/app/route-table'
import { initI18n } from '@/lib/i18n'
import { createQueryClient } from '@/lib/query-client'
import { startSession } from '@/lib/session'
import { inMemoryRouter } from '@/test/memory-router'
import { json, mockApi } from '@/test/mock-api'
import { testUser, validToken } from '@/test/tokens'

/** Lazy routes on a busy two-core machine can take longer than Testing Library's 1 s default. */
const SLOW = { timeout: 5_000 }

/** The real route table at `path`, with the query client pages expect, once the page has rendered. */
async function settled(path: string) {
  const i18n = await initI18n('en')
  await i18n.changeLanguage('en')
  const { router, element } = inMemoryRouter(path, <AppRoutes />)
  render(<QueryClientProvider client={createQueryClient()}>{element}</QueryClientProvider>)
  await screen.findByRole('main', {}, SLOW)
  // The page itself, not RouteError (which is a main of its own).
  expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull()
  return { router }
}

/** The app header is the one with the footer toggle; the app footer the one with quick links. */
const appHeader = () => screen.queryByRole('button', { name: 'Show footer' })?.closest('header') ?? null
const appFooter = () => screen.queryByRole('navigation', { name: 'Quick links' })?.closest('footer') ?? null

describe('app shell', () => {
  it.each(PAGES_WITH_OWN_CHROME.filter((path) => path !== '/'))(
    'leaves %s without the app header and footer',
    async (path) => {
      await settled(path)
      expect(appHeader()).toBeNull()
      expect(appFooter()).toBeNull()
    },
  )

  it.each(['/verify', '/resend-verification', '/no/such/page'])(
    'gives %s the app header and footer',
    async (path) => {
      await settled(path)
      expect(appHeader()).not.toBeNull()
      expect(appFooter()).not.toBeNull()
    },
  )

  it('gives a visitor login and register in the header, and the information links in the footer', async () => {
    await settled('/no/such/page')
    const header = appHeader()!
    expect(within(header).getAllByRole('link', { name: 'Log in' })[0]!.getAttribute('href')).toBe('/login')
    expect(within(header).getAllByRole('link', { name: 'Register' })[0]!.getAttribute('href')).toBe(
      '/register',
    )
    expect(within(header).queryByRole('button', { name: 'Log out' })).toBeNull()
    const footer = appFooter()!
    expect(within(footer).getByRole('link', { name: 'Pricing' }).getAttribute('href')).toBe('/#pricing')
    for (const [name, href] of [
      ['About', '/about'],
      ['Contact', '/contact'],
      ['Privacy', '/privacy'],
      ['Terms', '/terms'],
    ]) {
      expect(within(footer).getByRole('link', { name }).getAttribute('href')).toBe(href)
    }
    expect(within(footer).getByRole('button', { name: 'Cookie preferences' })).toBeTruthy()
  })

  it('hides and shows the footer from the header, and remembers the choice', async () => {
    await settled('/no/such/page')
    const toggle = screen.getAllByRole('button', { name: 'Show footer' })[0]!
    expect(toggle.getAttribute('aria-pressed')).toBe('true')
    fireEvent.click(toggle)
    await waitFor(() => expect(appFooter()).toBeNull(), SLOW)
    expect(localStorage.getItem('footerVisible')).toBe('false')
    expect(toggle.getAttribute('aria-pressed')).toBe('false')
    fireEvent.click(toggle)
    await waitFor(() => expect(appFooter()).not.toBeNull(), SLOW)
    expect(localStorage.getItem('footerVisible')).toBe('true')
  })

  it('keeps a hidden footer hidden on the next visit', async () => {
    localStorage.setItem('footerVisible', 'false')
    await settled('/no/such/page')
    expect(appHeader()).not.toBeNull()
    expect(appFooter()).toBeNull()
  })

  it('gives a signed-in user the app navigation with the current page marked, profile and logout', async () => {
    startSession(validToken(), testUser)
    await settled('/dashboard')
    const header = appHeader()!
    const nav = within(header).getAllByRole('navigation', { name: 'Main' })[0]!
    const links = within(nav).getAllByRole('link')
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      '/dashboard',
      '/circles',
      '/items',
      '/loans',
      '/blockchain',
    ])
    expect(within(nav).getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBe('page')
    expect(within(nav).getByRole('link', { name: 'Items' }).getAttribute('aria-current')).toBeNull()
    expect(within(header).getAllByRole('link', { name: 'Profile' })[0]!.getAttribute('href')).toBe('/profile')
    expect(within(header).getAllByRole('button', { name: 'Log out' }).length).toBeGreaterThan(0)
    expect(within(header).queryByRole('link', { name: 'Log in' })).toBeNull()
  })

  it('opens the menu for small screens and closes it on navigation', async () => {
    startSession(validToken(), testUser)
    const { router } = await settled('/dashboard')
    const menuButton = screen.getByRole('button', { name: 'Menu' })
    const panel = document.getElementById(menuButton.getAttribute('aria-controls')!)!
    expect(panel.hidden).toBe(true)
    fireEvent.click(menuButton)
    expect(menuButton.getAttribute('aria-expanded')).toBe('true')
    expect(panel.hidden).toBe(false)
    fireEvent.click(within(panel).getByRole('link', { name: 'Items' }))
    await waitFor(() => expect(router.location.pathname).toBe('/items'), SLOW)
    await waitFor(() => expect(menuButton.getAttribute('aria-expanded')).toBe('false'), SLOW)
    expect(panel.hidden).toBe(true)
  })

  it('closes the menu on Escape and returns focus to its button', async () => {
    await settled('/no/such/page')
    const menuButton = screen.getByRole('button', { name: 'Menu' })
    fireEvent.click(menuButton)
    expect(menuButton.getAttribute('aria-expanded')).toBe('true')
    fireEvent.keyDown(document, { key: 'Escape' })
    await waitFor(() => expect(menuButton.getAttribute('aria-expanded')).toBe('false'), SLOW)
    expect(document.activeElement).toBe(menuButton)
  })

  it('shows the dashboard in the shell, with the first steps for someone without circles', async () => {
    startSession(validToken(), testUser)
    mockApi({
      'GET /api/activities/recent': () => json(200, { activities: [] }),
      'GET /api/dashboard/stats': () => json(200, { totalCircles: 0, pendingHandovers: 0, ownedItems: 0 }),
      'GET /api/circles': () => json(200, { circles: [] }),
    })
    await settled('/dashboard')
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome back, Anna Keller' })).toBeTruthy()
    expect(await screen.findByRole('heading', { level: 2, name: 'Start with a circle' })).toBeTruthy()
    expect(screen.getByRole('main').id).toBe('main-content')
    vi.unstubAllGlobals()
  })
})

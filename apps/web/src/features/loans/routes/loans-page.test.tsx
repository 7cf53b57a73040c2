import { fireEvent, screen, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { BEN, testAsk, testLoan } from '@/test/lending'
import { json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { LoansPage } from './loans-page'

const OTTO = { id: '55555555-5555-4555-8555-555555555555', name: 'Otto Owner' }
const me = { id: testUser.id, name: testUser.name }
const borrowed = testLoan({
  id: crypto.randomUUID(),
  lender: OTTO,
  borrower: me,
  item: { name: 'Tent', thumbnailUrl: null },
})
const lentLate = testLoan({ overdue: true })

function api(extra: Record<string, () => Response> = {}) {
  return mockApi({
    'GET /api/loans?role=borrowed&status=active': () => json(200, { loans: [borrowed] }),
    'GET /api/loans?role=lent&status=active': () => json(200, { loans: [lentLate] }),
    'GET /api/borrow-requests?role=mine': () =>
      json(200, { borrowRequests: [testAsk({ asker: me, owner: OTTO, position: 3 })] }),
    ...extra,
  })
}
const open = (path = '/loans', language: 'en' | 'de' = 'en') =>
  renderPages({ '/loans': LoansPage }, path, { namespaces: ['loans'], language })

beforeEach(() => startSession(validToken(), testUser))
afterEach(() => vi.unstubAllGlobals())
vi.setConfig({ testTimeout: 20_000 })

describe('/loans (issue 26)', () => {
  it('lists what I borrowed, linked to the item, with its lender and date', async () => {
    api()
    await open()
    expect(screen.getByRole('heading', { level: 1, name: 'Loans' })).toBeTruthy()
    const link = await screen.findByRole('link', { name: 'Tent' })
    expect(link.getAttribute('href')).toBe(`/items/${borrowed.itemId}`)
    const panel = screen.getByRole('tabpanel')
    expect(panel.textContent).toContain('from Otto Owner')
    expect(panel.textContent).toContain('Due Dec 3, 2026')
  })

  it('shows an overdue lending calmly, and my asks with my place in line', async () => {
    api()
    const { router } = await open()
    fireEvent.click(screen.getByRole('tab', { name: 'Lent' }))
    const panel = await screen.findByRole('tabpanel')
    expect(await within(panel).findByText('Overdue since Dec 3, 2026')).toBeTruthy()
    expect(panel.textContent).toContain(`to ${BEN.name}`)
    expect(router.location.search).toBe('?tab=lent')
    fireEvent.click(screen.getByRole('tab', { name: 'Requested' }))
    expect(await screen.findByText('You are 3rd in line')).toBeTruthy()
  })

  it('opens the tab the address names, in German', async () => {
    api()
    await open('/loans?tab=requested', 'de')
    expect(screen.getByRole('tab', { name: 'Angefragt' }).getAttribute('aria-selected')).toBe('true')
    expect(await screen.findByText('Du bist 3. in der Reihe')).toBeTruthy()
  })

  it('has an empty state with the next step', async () => {
    api({ 'GET /api/loans?role=borrowed&status=active': () => json(200, { loans: [] }) })
    await open()
    expect(await screen.findByText('You are not borrowing anything.')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Browse items' }).getAttribute('href')).toBe('/items')
  })

  it('shows a loading state, then an error with retry that refetches', async () => {
    let fail = true
    api({
      'GET /api/loans?role=borrowed&status=active': () =>
        fail ? json(403, { message: 'Nope', code: 'FORBIDDEN' }) : json(200, { loans: [borrowed] }),
    })
    await open()
    expect(screen.getByRole('status').textContent).toContain('Loading')
    expect(await screen.findByText('Nope')).toBeTruthy()
    fail = false
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('link', { name: 'Tent' })).toBeTruthy()
  })
})

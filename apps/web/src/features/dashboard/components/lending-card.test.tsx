import { screen, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { CARA, testAsk, testLoan } from '@/test/lending'
import { json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { LendingCard } from './lending-card'

const OTTO = { id: '55555555-5555-4555-8555-555555555555', name: 'Otto Owner' }
const me = { id: testUser.id, name: testUser.name }
const inDays = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString()
const item = (name: string) => ({ name, thumbnailUrl: null })

function api(borrowed: unknown[], lent: unknown[], asks: unknown[]) {
  return mockApi({
    'GET /api/loans?role=borrowed&status=active': () => json(200, { loans: borrowed }),
    'GET /api/loans?role=lent&status=active': () => json(200, { loans: lent }),
    'GET /api/borrow-requests?role=of-me': () => json(200, { borrowRequests: asks }),
  })
}
const render = () => renderPages({ '/dashboard': LendingCard }, '/dashboard', { namespaces: ['loans'] })
const section = (name: string) => screen.findByRole('region', { name })

beforeEach(() => startSession(validToken(), testUser))
afterEach(() => vi.unstubAllGlobals())

describe("the dashboard's lending (issue 26)", () => {
  it("sorts loans into 'Overdue', 'Due back soon', 'Asked of me' and 'My loans'", async () => {
    api(
      [
        testLoan({
          id: crypto.randomUUID(),
          lender: OTTO,
          borrower: me,
          item: item('Tent'),
          dueAt: inDays(10),
        }),
        testLoan({
          id: crypto.randomUUID(),
          lender: OTTO,
          borrower: me,
          item: item('Ladder'),
          overdue: true,
          dueAt: inDays(-2),
        }),
      ],
      [
        testLoan({ id: crypto.randomUUID(), item: item('Drill'), dueAt: inDays(1) }),
        testLoan({ id: crypto.randomUUID(), item: item('Saw'), dueAt: inDays(20) }),
      ],
      [testAsk({ item: item('Kayak') })],
    )
    await render()
    const overdue = await section('Overdue')
    expect(within(overdue).getByRole('link', { name: 'Ladder' })).toBeTruthy()
    expect(overdue.textContent).toContain('from Otto Owner')
    const soon = await section('Due back soon')
    expect(within(soon).getByRole('link', { name: 'Drill' })).toBeTruthy()
    // Due in 20 days: not soon.
    expect(screen.queryByRole('link', { name: 'Saw' })).toBeNull()
    const asked = await section('Asked of me')
    expect(asked.textContent).toContain(`${CARA.name} asks to borrow`)
    const mine = await section('My loans')
    expect(within(mine).getByRole('link', { name: 'Tent' }).getAttribute('href')).toMatch(/^\/items\//)
    expect(screen.getByRole('link', { name: /All loans/ }).getAttribute('href')).toBe('/loans')
  })

  it('says so in one line when nothing is lent, borrowed or asked', async () => {
    api([], [], [])
    await render()
    expect(await screen.findByText('Nothing lent or borrowed right now.')).toBeTruthy()
    expect(screen.queryByRole('heading', { level: 3 })).toBeNull()
  })

  it('shows an error with retry when the loans cannot be loaded', async () => {
    mockApi({
      'GET /api/loans?role=borrowed&status=active': () => json(500, { message: 'Down' }),
      'GET /api/loans?role=lent&status=active': () => json(200, { loans: [] }),
      'GET /api/borrow-requests?role=of-me': () => json(200, { borrowRequests: [] }),
    })
    await render()
    expect(await screen.findByText('Loans could not be loaded.', undefined, { timeout: 10_000 })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy()
  }, 20_000)
})

import type { TItem } from '@circles/shared'
import { screen } from '@/test/testing-library'
import { describe, expect, it } from 'vitest'
import { testItem } from '@/test/items'
import { lendingOf, testLoan } from '@/test/lending'
import { renderPages } from '@/test/render-pages'
import { ItemCard } from './item-card'

const renderCard = async (item: TItem, language: 'en' | 'de' = 'en') => {
  await renderPages({ '/': () => <ItemCard item={item} /> }, '/', {
    namespaces: ['items', 'loans'],
    language,
  })
  // Level 2: the cards sit right under the list's h1 (Lighthouse's heading-order, issue 27).
  await screen.findByRole('heading', { level: 2, name: 'Cordless drill' })
}

describe('item card: lending badges (issue 26)', () => {
  it("shows 'On loan' with the borrower and date", async () => {
    await renderCard(testItem({ lending: lendingOf(testLoan()) }))
    expect(screen.getByText('On loan')).toBeTruthy()
    expect(screen.getByText('On loan to Ben Ortiz until Dec 3, 2026')).toBeTruthy()
  })

  it("shows 'Overdue' and the queue's length", async () => {
    await renderCard(testItem({ lending: lendingOf(testLoan({ overdue: true }), 2) }))
    expect(screen.getByText('Overdue')).toBeTruthy()
    expect(screen.getByText('2 waiting')).toBeTruthy()
  })

  it('shows nothing about lending for an available item nobody waits for', async () => {
    await renderCard(testItem())
    expect(screen.queryByText(/On loan|Overdue|waiting|Available/)).toBeNull()
  })

  it('speaks German', async () => {
    await renderCard(testItem({ lending: lendingOf(testLoan(), 1) }), 'de')
    expect(screen.getByText('Verliehen')).toBeTruthy()
    expect(screen.getByText('1 wartet')).toBeTruthy()
  })
})

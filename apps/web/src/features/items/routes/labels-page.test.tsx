import type { TItem } from '@circles/shared'
import { fireEvent, screen, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testItem } from '@/test/items'
import { testUser, validToken } from '@/test/tokens'
import { ItemCodePage } from './item-code-page'
import { LabelsPage } from './labels-page'

const CIRCLE = '11111111-1111-4111-8111-111111111111'

const items: TItem[] = Array.from({ length: 26 }, (_, n) =>
  testItem({
    id: `33333333-3333-4333-8333-${String(n).padStart(12, '0')}`,
    name: `Thing ${n + 1}`,
    code: `ABCD${String(n + 22).replace(/[01]/g, '9')}XY`.slice(0, 8),
  }),
)

async function render(path = `/circles/${CIRCLE}/labels`) {
  mockApi({
    [`GET /api/circles/${CIRCLE}`]: () => json(404, { error: 'NOT_FOUND', message: 'Not found' }),
    [`GET /api/items/circle/${CIRCLE}`]: () => json(200, { items, total: items.length }),
  })
  const view = await renderPages({ '/circles/:circleId/labels': LabelsPage }, path, { namespaces: ['items'] })
  await screen.findAllByTestId('item-label')
  return view
}

beforeEach(() => startSession(validToken(), testUser))
afterEach(() => vi.unstubAllGlobals())

describe('labels page (issue 27)', () => {
  it('shows a QR code per item with its name and code under it, on A4 3 × 8 sheets by default', async () => {
    await render()
    const labels = screen.getAllByTestId('item-label')
    expect(labels).toHaveLength(26)
    const first = labels[0]!
    expect(within(first).getByText('Thing 1')).toBeTruthy()
    expect(within(first).getByText(items[0]!.code)).toBeTruthy()
    // The QR code: an SVG titled for the item, one per label.
    const qr = first.querySelector('svg')!
    expect(qr.querySelector('title')?.textContent).toBe('QR code for Thing 1')
    expect(qr.querySelectorAll('path').length).toBeGreaterThan(0)
    const sheets = screen.getAllByTestId('label-sheet')
    expect(sheets).toHaveLength(2) // 24 on the first, 2 on the second
    expect(within(sheets[0]!).getAllByTestId('item-label')).toHaveLength(24)
    expect(sheets[0]!.style.gridTemplateColumns).toBe('repeat(3, 70mm)')
    expect(sheets[0]!.style.gridTemplateRows).toBe('repeat(8, 37mm)')
    expect(sheets[0]!.style.width).toBe('210mm')
    expect(document.querySelector('main style')?.textContent).toContain('size: A4')
    expect(screen.getByText('26 labels on 2 sheets')).toBeTruthy()
  })

  it('the sheet choice changes the grid, the paper and the labels per page', async () => {
    const { router } = await render()
    fireEvent.change(screen.getByLabelText('Label sheet'), { target: { value: 'letter-3x10' } })
    const sheet = (await screen.findAllByTestId('label-sheet'))[0]!
    expect(sheet.dataset.sheet).toBe('letter-3x10')
    expect(sheet.style.gridTemplateColumns).toBe('repeat(3, 2.625in)')
    expect(sheet.style.gridTemplateRows).toBe('repeat(10, 1in)')
    expect(sheet.style.columnGap).toBe('0.125in')
    expect(sheet.style.width).toBe('8.5in')
    expect(within(sheet).getAllByTestId('item-label')).toHaveLength(26)
    expect(screen.getAllByTestId('label-sheet')).toHaveLength(1)
    expect(document.querySelector('main style')?.textContent).toContain('size: letter')
    expect(router.location.search).toBe('?sheet=letter-3x10')

    fireEvent.change(screen.getByLabelText('Label sheet'), { target: { value: 'a4-2x7' } })
    const sheets = await screen.findAllByTestId('label-sheet')
    expect(sheets).toHaveLength(2)
    expect(sheets[0]!.style.gridTemplateColumns).toBe('repeat(2, 99.1mm)')
    expect(within(sheets[0]!).getAllByTestId('item-label')).toHaveLength(14)
  })

  it('prints with the browser (window.print)', async () => {
    const print = vi.fn()
    vi.stubGlobal('print', print)
    await render(`/circles/${CIRCLE}/labels?sheet=letter-2x5`)
    fireEvent.click(screen.getByRole('button', { name: 'Print' }))
    expect(print).toHaveBeenCalledOnce()
    expect(screen.getAllByTestId('label-sheet')).toHaveLength(3)
  })
})

describe('labels page: used sheets and chosen items (issue 27)', () => {
  it('starts at a later label of the first sheet, leaving the used ones blank', async () => {
    const { router } = await render(`/circles/${CIRCLE}/labels?sheet=a4-2x7`)
    const start = screen.getByLabelText('Start at label')
    expect(within(start).getAllByRole('option')).toHaveLength(14)
    fireEvent.change(start, { target: { value: '5' } })
    expect(router.location.search).toBe('?sheet=a4-2x7&start=5')
    const sheets = await screen.findAllByTestId('label-sheet')
    // 4 used + 10 labels on the first sheet, then 16 on two more.
    expect(within(sheets[0]!).getAllByTestId('label-skipped')).toHaveLength(4)
    expect(within(sheets[0]!).getAllByTestId('item-label')).toHaveLength(10)
    expect(sheets[0]!.children[4]!.textContent).toContain('Thing 1')
    expect(sheets).toHaveLength(3)
    expect(screen.getByText('26 labels on 3 sheets')).toBeTruthy()
    expect(screen.getByRole('option', { name: '5: row 3, column 1' })).toBeTruthy()
  })

  it('a start the sheet does not have starts at the first; another sheet starts over', async () => {
    const { router } = await render(`/circles/${CIRCLE}/labels?sheet=letter-2x5&start=40`)
    expect((screen.getByLabelText('Start at label') as HTMLSelectElement).value).toBe('1')
    expect(screen.queryAllByTestId('label-skipped')).toHaveLength(0)
    fireEvent.change(screen.getByLabelText('Start at label'), { target: { value: '3' } })
    fireEvent.change(screen.getByLabelText('Label sheet'), { target: { value: 'a4-3x8' } })
    expect(router.location.search).toBe('?sheet=a4-3x8')
  })

  it('prints only the chosen items; none chosen disables Print and says why', async () => {
    await render()
    expect(screen.getByText('(all 26)')).toBeTruthy()
    fireEvent.click(screen.getByLabelText('Thing 2'))
    fireEvent.click(screen.getByLabelText('Thing 3'))
    expect(screen.getByText('(24 of 26)')).toBeTruthy()
    expect(screen.getAllByTestId('item-label')).toHaveLength(24)
    expect(screen.getByText('24 labels on 1 sheet')).toBeTruthy()
    expect(screen.queryByText('Thing 2', { selector: '[data-testid=item-label] *' })).toBeNull()

    fireEvent.click(screen.getByRole('button', { name: 'Select none' }))
    expect(screen.queryAllByTestId('item-label')).toHaveLength(0)
    expect(screen.getByText('No item chosen: tick at least one to print its label.')).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Print' }) as HTMLButtonElement).disabled).toBe(true)

    fireEvent.click(screen.getByRole('button', { name: 'Select all' }))
    expect(screen.getAllByTestId('item-label')).toHaveLength(26)
  })
})

describe('/i/:code (issue 27)', () => {
  it("replaces the address with the item's page", async () => {
    const item = items[3]!
    mockApi({ [`GET /api/items/by-code/${item.code}`]: () => json(200, { item }) })
    await renderPages({ '/i/:code': ItemCodePage }, `/i/${item.code}`, { namespaces: ['items'] })
    expect((await screen.findByTestId('landed')).textContent).toBe(`/items/${item.id}`)
  })

  it("shows the item page's not-found text for a code the person may not see", async () => {
    mockApi({
      'GET /api/items/by-code/ZZZZZZZZ': () => json(404, { error: 'NOT_FOUND', message: 'Not found' }),
    })
    await renderPages({ '/i/:code': ItemCodePage }, '/i/ZZZZZZZZ', { namespaces: ['items'] })
    expect(
      await screen.findByRole('heading', { name: 'This item does not exist, or it is not shared with you.' }),
    ).toBeTruthy()
  })
})

describe('/i/:code from what the device already has (issue 27)', () => {
  it('opens an item seen in a list at once, without waiting for the server (offline too)', async () => {
    const item = items[5]!
    // The server never answers: the code is resolved from the cached list.
    mockApi({ [`GET /api/items/by-code/${item.code}`]: () => new Promise<Response>(() => {}) })
    await renderPages({ '/i/:code': ItemCodePage }, `/i/${item.code}`, {
      namespaces: ['items'],
      seed: (client) => client.setQueryData(['items', 'circle', CIRCLE], { items, total: items.length }),
    })
    expect((await screen.findByTestId('landed')).textContent).toBe(`/items/${item.id}`)
  })
})

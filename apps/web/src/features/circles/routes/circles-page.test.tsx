import { MESSAGES, type TCircleListEntry } from '@circles/shared'
import { fireEvent, screen, within } from '@/test/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { daysAgo, json, mockApi, renderCirclesPage } from '../test/render-circles-page'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const entry = (
  overrides: Partial<TCircleListEntry['circle']> & { role?: 'ADMIN' | 'MEMBER'; joinedAt?: string },
) => {
  const { role = 'ADMIN', joinedAt = daysAgo(3), ...circle } = overrides
  const id = circle.id ?? crypto.randomUUID()
  return {
    id: crypto.randomUUID(),
    role,
    joinedAt,
    circle: {
      id,
      name: 'Maple Street flat',
      description: 'Tools, the ladder and the good pan.',
      adminId: crypto.randomUUID(),
      createdAt: daysAgo(40),
      memberCount: 3,
      ...circle,
    },
  }
}

describe('/circles', () => {
  it('shows a card per circle: name, role badge, description, member count, joined date, link', async () => {
    const flat = entry({ name: 'Maple Street flat', role: 'ADMIN', joinedAt: daysAgo(3) })
    const club = entry({
      name: 'Climbing club',
      role: 'MEMBER',
      description: null,
      joinedAt: '2024-03-12T10:00:00.000Z',
    })
    mockApi({ 'GET /api/circles': () => json(200, { circles: [flat, club] }) })
    await renderCirclesPage('/circles')

    expect(await screen.findByRole('heading', { level: 1, name: 'Your circles' })).toBeTruthy()
    const cards = await screen.findAllByRole('link', { name: /Maple Street flat|Climbing club/ })
    expect(cards).toHaveLength(2)
    const [first, second] = cards as [HTMLElement, HTMLElement]
    expect(first.getAttribute('href')).toBe(`/circles/${flat.circle.id}`)
    expect(within(first).getByText('Admin')).toBeTruthy()
    expect(within(first).getByText('Tools, the ladder and the good pan.').className).toContain('line-clamp-2')
    expect(within(first).getByText('3 members')).toBeTruthy()
    expect(within(first).getByText('Joined 3 days ago')).toBeTruthy()
    expect(second.getAttribute('href')).toBe(`/circles/${club.circle.id}`)
    expect(within(second).getByText('Member')).toBeTruthy()
    expect(within(second).getByText('Joined Mar 12, 2024')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Create circle' }).getAttribute('href')).toBe('/circles/create')
    expect(document.title).toBe('Your circles · Circles')
  })

  it('has an empty state with a create button', async () => {
    mockApi({ 'GET /api/circles': () => json(200, { circles: [] }) })
    await renderCirclesPage('/circles')
    expect(await screen.findByRole('heading', { name: 'No circles yet' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Create your first circle' }).getAttribute('href')).toBe(
      '/circles/create',
    )
  })

  it('shows a loading state while the list is on its way', async () => {
    mockApi({ 'GET /api/circles': () => new Promise<Response>(() => undefined) })
    await renderCirclesPage('/circles')
    expect(await screen.findByRole('status')).toBeTruthy()
    expect(screen.getByText('Loading your circles…')).toBeTruthy()
  })

  it('on an error says so and offers a reload of the page', async () => {
    mockApi({ 'GET /api/circles': () => json(500, { message: MESSAGES.somethingWentWrong }) })
    const reload = vi.fn()
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload } as Location)
    await renderCirclesPage('/circles')
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 })
    expect(within(alert).getByText(MESSAGES.anErrorOccurred)).toBeTruthy()
    fireEvent.click(within(alert).getByRole('button', { name: 'Reload page' }))
    expect(reload).toHaveBeenCalledOnce()
  })

  it.each([
    ['en', 'Reference for support:'],
    ['de', 'Kennung für den Support:'],
  ] as const)('shows the failed answer’s request id for support (%s)', async (language, label) => {
    const id = '0f1e2d3c-4b5a-4987-a654-3210fedcba98'
    mockApi({
      'GET /api/circles': () =>
        new Response(JSON.stringify({ message: MESSAGES.somethingWentWrong }), {
          status: 500,
          headers: { 'Content-Type': 'application/json', 'X-Request-Id': id },
        }),
    })
    await renderCirclesPage('/circles', { language })
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 })
    expect(within(alert).getByText(id)).toBeTruthy()
    expect(within(alert).getByText(label)).toBeTruthy()
  })

  it('speaks German', async () => {
    mockApi({
      'GET /api/circles': () => json(200, { circles: [entry({ role: 'MEMBER', joinedAt: daysAgo(2) })] }),
    })
    await renderCirclesPage('/circles', { language: 'de' })
    expect(await screen.findByRole('heading', { level: 1, name: 'Deine Kreise' })).toBeTruthy()
    expect(await screen.findByText('Beigetreten vor 2 Tagen')).toBeTruthy()
    expect(screen.getByText('Mitglied')).toBeTruthy()
    expect(screen.getByText('3 Mitglieder')).toBeTruthy()
  })
})

import { MESSAGES } from '@circles/shared'
import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { trackEvent } from '@/lib/analytics'
import { json, mockApi, renderCirclesPage, sentBodies, toasts } from '../test/render-circles-page'

vi.mock('@/lib/analytics', () => ({ trackEvent: vi.fn() }))

beforeEach(() => vi.mocked(trackEvent).mockClear())
afterEach(() => vi.unstubAllGlobals())

const CIRCLE_ID = '4b7f2b8e-3a51-4c1e-9d7a-6f0e2c1d9a10'
const field = (label: RegExp | string) => screen.getByLabelText(label) as HTMLInputElement
const fill = (label: RegExp | string, value: string) => fireEvent.change(field(label), { target: { value } })
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create circle' }))

const created = (name: string, description: string | null = null) => ({
  circle: {
    id: CIRCLE_ID,
    name,
    description,
    adminId: '8d0c7a52-4a55-4f2e-9a0f-2f7c0d1b6e11',
    createdAt: new Date().toISOString(),
    memberCount: 1,
  },
  message: MESSAGES.circleCreated,
})

describe('/circles/create', () => {
  it('checks the name first: required, then at least 3 characters; nothing is sent', async () => {
    const fetchMock = mockApi({})
    await renderCirclesPage('/circles/create')
    expect(await screen.findByRole('heading', { level: 1, name: 'Create a circle' })).toBeTruthy()

    submit()
    expect(await toasts().findByText(MESSAGES.required)).toBeTruthy()
    expect(screen.getByText(MESSAGES.fieldRequired)).toBeTruthy()
    expect(field('Name').getAttribute('aria-invalid')).toBe('true')

    fill('Name', 'ab')
    submit()
    expect(await toasts().findByText(MESSAGES.circleNameMin)).toBeTruthy()
    expect(screen.getByText(MESSAGES.circleNameMin, { selector: 'main span' })).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it("refuses a pasted control character with the contract's message; nothing is sent", async () => {
    const fetchMock = mockApi({})
    await renderCirclesPage('/circles/create')
    await screen.findByRole('heading', { level: 1, name: 'Create a circle' })
    fill('Name', 'Garden\u0000club')
    submit()
    expect(await toasts().findByText(MESSAGES.invalidCharacters)).toBeTruthy()
    expect(screen.getByText(MESSAGES.invalidCharacters, { selector: 'main span' })).toBeTruthy()

    fill('Name', 'Garden club')
    fill(/Description/, 'Spades\n\tand rakes\u001b')
    submit()
    expect(await toasts().findByText(MESSAGES.invalidCharacters)).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('says it in German', async () => {
    mockApi({})
    await renderCirclesPage('/circles/create', { language: 'de' })
    fireEvent.change(await screen.findByLabelText('Name'), { target: { value: 'Garten\u0007' } })
    fireEvent.click(screen.getByRole('button', { name: 'Kreis gründen' }))
    expect(
      await toasts().findByText(
        'Dieser Text enthält Zeichen, die nicht erlaubt sind, zum Beispiel Steuerzeichen.',
      ),
    ).toBeTruthy()
  })

  it('creates the circle: toast, analytics event, and on to the new circle', async () => {
    const fetchMock = mockApi({
      'POST /api/circles': () => json(201, created('Maple Street flat', 'Tools and the ladder')),
    })
    const { router } = await renderCirclesPage('/circles/create')
    await screen.findByRole('heading', { level: 1 })
    fill('Name', '  Maple Street flat ')
    fill(/Description/, 'Tools and the ladder')
    submit()

    await waitFor(() => expect(router.location.pathname).toBe(`/circles/${CIRCLE_ID}`))
    expect(await toasts().findByText(MESSAGES.circleCreated)).toBeTruthy()
    expect(trackEvent).toHaveBeenCalledWith('circle_created')
    expect(sentBodies(fetchMock, 'POST /api/circles')).toEqual([
      { name: 'Maple Street flat', description: 'Tools and the ladder' },
    ])
  })

  it('leaves an empty description out', async () => {
    const fetchMock = mockApi({ 'POST /api/circles': () => json(201, created('Flat')) })
    const { router } = await renderCirclesPage('/circles/create')
    await screen.findByRole('heading', { level: 1 })
    fill('Name', 'Flat')
    submit()
    await waitFor(() => expect(router.location.pathname).toBe(`/circles/${CIRCLE_ID}`))
    expect(sentBodies(fetchMock, 'POST /api/circles')).toEqual([{ name: 'Flat' }])
  })

  it('shows the plan limit clearly, with a way to ask about Enterprise', async () => {
    mockApi({
      'POST /api/circles': () =>
        json(403, { message: MESSAGES.circleLimitReached, code: 'PLAN_LIMIT_REACHED' }),
    })
    const { router } = await renderCirclesPage('/circles/create')
    await screen.findByRole('heading', { level: 1 })
    fill('Name', 'Third circle')
    submit()
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain(MESSAGES.circleLimitReached)
    expect(
      within(alert).getByRole('link', { name: 'Contact us about Enterprise' }).getAttribute('href'),
    ).toBe('/contact')
    expect(router.location.pathname).toBe('/circles/create')
    expect(trackEvent).not.toHaveBeenCalled()
  })

  it("falls back to 'An error occurred' when the failure says nothing useful", async () => {
    mockApi({ 'POST /api/circles': () => Promise.reject(new TypeError('Failed to fetch')) })
    await renderCirclesPage('/circles/create')
    await screen.findByRole('heading', { level: 1 })
    fill('Name', 'Flat')
    submit()
    expect((await screen.findByRole('alert')).textContent).toContain(MESSAGES.anErrorOccurred)
  })

  it('cancels back to the list, and speaks German', async () => {
    mockApi({})
    await renderCirclesPage('/circles/create', { language: 'de' })
    expect(await screen.findByRole('heading', { level: 1, name: 'Kreis gründen' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Abbrechen' }).getAttribute('href')).toBe('/circles')
    fireEvent.click(screen.getByRole('button', { name: 'Kreis gründen' }))
    expect(await toasts().findByText('Bitte fülle alle Pflichtfelder aus')).toBeTruthy()
  })
})

import { fireEvent, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startSession } from '@/lib/session'
import { callCount, json, mockApi } from '@/test/mock-api'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { CalendarFeed } from './calendar-feed'
import { NoticePreferences } from './notice-preferences'
import { sentBodies } from '@/test/mock-api'

const FIRST = `http://localhost/api/calendar/${'a'.repeat(43)}.ics`
const SECOND = `http://localhost/api/calendar/${'b'.repeat(43)}.ics`

beforeEach(() => startSession(validToken(), testUser))
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const render = (ui: () => React.ReactNode, language: 'en' | 'de' = 'en') =>
  renderPages({ '/': ui }, '/', { language, namespaces: ['profile'] })

describe('the calendar card on /profile', () => {
  it('makes a link when there is none, shows it with a copy button', async () => {
    let url: string | null = null
    const writeText = vi.fn(async () => undefined)
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } })
    const fetchMock = mockApi({
      'GET /api/users/me/calendar': () => json(200, { url }),
      'POST /api/users/me/calendar': () => json(200, { url: (url = FIRST) }),
    })
    await render(() => <CalendarFeed />)
    expect(await screen.findByText('The calendar link is off.')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Make a calendar link' }))
    const field = (await screen.findByLabelText('Your private calendar link')) as HTMLInputElement
    expect(field.value).toBe(FIRST)
    expect(field.readOnly).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }))
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy()
    expect(writeText).toHaveBeenCalledWith(FIRST)
    expect(callCount(fetchMock, 'POST /api/users/me/calendar')).toBe(1)
  })

  it('asks before a new link and before turning it off', async () => {
    let url: string | null = FIRST
    const fetchMock = mockApi({
      'GET /api/users/me/calendar': () => json(200, { url }),
      'POST /api/users/me/calendar': () => json(200, { url: (url = SECOND) }),
      'DELETE /api/users/me/calendar': () => json(200, { url: (url = null) }),
    })
    await render(() => <CalendarFeed />)
    await screen.findByDisplayValue(FIRST)
    fireEvent.click(screen.getByRole('button', { name: 'New link' }))
    const renew = await screen.findByRole('dialog', { name: 'Make a new calendar link?' })
    fireEvent.click(within(renew).getByRole('button', { name: 'New link' }))
    expect(await screen.findByDisplayValue(SECOND)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Turn off' }))
    const off = await screen.findByRole('dialog', { name: 'Turn the calendar link off?' })
    fireEvent.click(within(off).getByRole('button', { name: 'Turn off' }))
    expect(await screen.findByText('The calendar link is off.')).toBeTruthy()
    expect(callCount(fetchMock, 'DELETE /api/users/me/calendar')).toBe(1)
  })

  it('speaks German', async () => {
    mockApi({ 'GET /api/users/me/calendar': () => json(200, { url: FIRST }) })
    await render(() => <CalendarFeed />, 'de')
    expect(await screen.findByRole('button', { name: 'Neuer Link' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Ausschalten' })).toBeTruthy()
    expect(screen.getByText('Kalender')).toBeTruthy()
  })
})

describe('the lending notice switches', () => {
  it('show the three lending kinds and send all six', async () => {
    const notices = {
      handoverRequests: true,
      handoverAnswers: true,
      invitations: true,
      loanReminders: true,
      borrowRequests: false,
      loanChanges: true,
      push: { handoverRequests: true, handoverAnswers: true, invitations: true, loanReminders: true },
    }
    const fetchMock = mockApi({
      'GET /api/users/me/notifications': () => json(200, { notices }),
      'PUT /api/users/me/notifications': (body) => json(200, { notices: body }),
    })
    await render(() => <NoticePreferences />)
    const reminders = (await screen.findByLabelText(
      'Reminders before a return date, and when something I borrowed or lent is overdue',
    )) as HTMLInputElement
    expect(reminders.checked).toBe(true)
    expect(
      (
        screen.getByLabelText(
          'When someone asks to borrow my things, or my ask to borrow is answered',
        ) as HTMLInputElement
      ).checked,
    ).toBe(false)
    fireEvent.click(reminders)
    fireEvent.click(screen.getByRole('button', { name: 'Save preferences' }))
    await waitFor(() => expect(callCount(fetchMock, 'PUT /api/users/me/notifications')).toBe(1))
    expect(sentBodies(fetchMock, 'PUT /api/users/me/notifications')[0]).toEqual({
      ...notices,
      loanReminders: false,
    })
  })
})

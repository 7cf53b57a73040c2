import { zodResolver } from '@hookform/resolvers/zod'
import { MESSAGES, ZContactRequest } from '@circles/shared'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { fireEvent, render, screen, waitFor } from '@/test/testing-library'
import { MemoryRouter } from 'react-router'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n, initI18n, loadNamespaces } from '@/lib/i18n'
import { notify } from '@/lib/notify'
import { ContactForm, firstContactError } from './contact-form'

vi.mock('@/lib/notify', () => ({
  notify: { error: vi.fn(), success: vi.fn(), info: vi.fn(), warning: vi.fn(), dismiss: vi.fn() },
}))

const fetchMock = vi.fn<typeof fetch>()
const CONTACT_ERROR = 'There was an error sending your message. Please try again later.'

beforeAll(async () => {
  await initI18n('en')
  await loadNamespaces('contact')
})

beforeEach(async () => {
  await i18n.changeLanguage('en')
  vi.mocked(notify.error).mockClear()
  fetchMock.mockReset()
  vi.stubGlobal('fetch', fetchMock)
})

afterEach(() => {
  vi.unstubAllGlobals()
})

function renderForm() {
  const queryClient = new QueryClient({ defaultOptions: { mutations: { retry: false } } })
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <ContactForm />
      </MemoryRouter>
    </QueryClientProvider>,
  )
}

const field = {
  name: () => screen.getByLabelText('Name') as HTMLInputElement,
  email: () => screen.getByLabelText('Email') as HTMLInputElement,
  subject: () => screen.getByLabelText('Subject') as HTMLSelectElement,
  message: () => screen.getByLabelText('Message') as HTMLTextAreaElement,
}

function fill(values: Partial<Record<keyof typeof field, string>>) {
  for (const [name, value] of Object.entries(values)) {
    fireEvent.change(field[name as keyof typeof field](), { target: { value } })
  }
}

function submit() {
  fireEvent.click(screen.getByRole('button', { name: 'Send message' }))
}

const VALID = {
  name: 'Anna Keller',
  email: '  Anna@Example.com ',
  subject: 'feature',
  message: 'Could circles have sub-groups?',
}

/** The toast shown for the last invalid submit. */
async function toasted(): Promise<string> {
  await waitFor(() => expect(notify.error).toHaveBeenCalled())
  return vi.mocked(notify.error).mock.lastCall![0]
}

describe('contact form validation (spec 000 §5)', () => {
  it('offers the five subjects with their values, and a 5-row message box', () => {
    renderForm()
    const options = [...field.subject().options].map((option) => [option.value, option.textContent])
    expect(options).toEqual([
      ['', 'Choose a subject'],
      ['general', 'General inquiry'],
      ['support', 'Technical support'],
      ['feature', 'Feature request'],
      ['billing', 'Billing question'],
      ['other', 'Other'],
    ])
    expect(field.message().getAttribute('rows')).toBe('5')
  })

  it('asks for all fields first: one toast, each empty field marked inline, focus on the first', async () => {
    renderForm()
    submit()
    expect(await toasted()).toBe(MESSAGES.required)
    expect(notify.error).toHaveBeenCalledOnce()
    expect(await screen.findAllByText(MESSAGES.required)).toHaveLength(4)
    for (const control of Object.values(field)) expect(control().getAttribute('aria-invalid')).toBe('true')
    expect(document.activeElement).toBe(field.name())
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('reports a missing field before any other rule', async () => {
    renderForm()
    fill({ name: 'Anna', email: 'not-an-email', message: 'short' })
    submit()
    expect(await toasted()).toBe(MESSAGES.required)
    // Only the empty subject is marked; the email and message rules come after "all required".
    expect(await screen.findAllByText(MESSAGES.required)).toHaveLength(1)
    expect(field.subject().getAttribute('aria-invalid')).toBe('true')
    expect(screen.queryByText(MESSAGES.invalidEmail)).toBeNull()
    expect(screen.queryByText(MESSAGES.messageMin)).toBeNull()
  })

  it('then the field rules, the first in field order in the toast and each one inline', async () => {
    renderForm()
    fill({ ...VALID, email: 'anna@example', message: 'too short' })
    submit()
    expect(await toasted()).toBe(MESSAGES.invalidEmail)
    expect(await screen.findByText(MESSAGES.invalidEmail)).toBeTruthy()
    expect(screen.getByText(MESSAGES.messageMin)).toBeTruthy()
    expect(field.message().getAttribute('aria-describedby')).toContain(
      screen.getByText(MESSAGES.messageMin).id,
    )
  })

  it('requires a message of at least 10 characters', async () => {
    renderForm()
    fill({ ...VALID, message: '123456789' })
    submit()
    expect(await toasted()).toBe(MESSAGES.messageMin)
  })

  it('requires a subject of at least 3 characters (the shared rule behind the select)', async () => {
    const resolve = zodResolver(ZContactRequest)
    const result = await resolve({ ...VALID, subject: 'ab' }, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    })
    expect(result.errors.subject?.message).toBe(MESSAGES.subjectRequired)
    expect(firstContactError(result.errors)).toBe(MESSAGES.subjectRequired)
  })

  it('shows the messages in German', async () => {
    await i18n.changeLanguage('de')
    renderForm()
    fireEvent.click(screen.getByRole('button', { name: 'Nachricht senden' }))
    const german = i18n.t('required', { ns: 'errors' })
    expect(german).not.toBe(MESSAGES.required)
    expect(await toasted()).toBe(german)
    expect(await screen.findAllByText(german)).toHaveLength(4)
  })
})

describe('sending', () => {
  it('posts the cleaned message, shows the confirmation, and "Send another message" starts afresh', async () => {
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ message: MESSAGES.contactSent }), {
        status: 201,
        headers: { 'Content-Type': 'application/json' },
      }),
    )
    renderForm()
    fill(VALID)
    submit()

    const heading = await screen.findByRole('heading', { name: 'Message sent' })
    expect(screen.getByText(MESSAGES.contactSent)).toBeTruthy()
    await waitFor(() => expect(document.activeElement).toBe(heading))

    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('/api/contact')
    expect(init?.method).toBe('POST')
    expect(JSON.parse(String(init?.body))).toEqual({
      name: 'Anna Keller',
      email: 'anna@example.com',
      subject: 'feature',
      message: 'Could circles have sub-groups?',
    })
    expect(notify.error).not.toHaveBeenCalled()

    fireEvent.click(screen.getByRole('button', { name: 'Send another message' }))
    expect(await screen.findByRole('button', { name: 'Send message' })).toBeTruthy()
    expect(field.name().value).toBe('')
    expect(field.email().value).toBe('')
    expect(field.subject().value).toBe('')
    expect(field.message().value).toBe('')
    await waitFor(() => expect(document.activeElement).toBe(field.name()))
  })

  it('keeps what was typed and says so when sending fails', async () => {
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ message: 'Something went wrong' }), {
        status: 500,
        headers: { 'Content-Type': 'application/json' },
      }),
    )
    renderForm()
    fill(VALID)
    submit()

    expect(await toasted()).toBe(CONTACT_ERROR)
    expect((await screen.findByRole('alert')).textContent).toBe(CONTACT_ERROR)
    expect(field.message().value).toBe(VALID.message)
    expect(screen.queryByRole('heading', { name: 'Message sent' })).toBeNull()
  })
})

describe('a double submit sends one message (issue 23)', () => {
  it('posts once', async () => {
    fetchMock.mockImplementation(() =>
      Promise.resolve(new Response(JSON.stringify({ message: 'Thank you' }), { status: 200 })),
    )
    renderForm()
    fill(VALID)
    const form = screen.getByRole('button', { name: 'Send message' }).closest('form')!
    fireEvent.submit(form)
    fireEvent.submit(form)
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })
})

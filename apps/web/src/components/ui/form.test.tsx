import { act, fireEvent, render, screen, waitFor } from '@/test/testing-library'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { useForm } from 'react-hook-form'
import { describe, expect, it, vi } from 'vitest'
import { Form } from './form'

interface Values {
  email: string
  topic: string
  remember: boolean
}

function Example({ onValid }: { onValid: (values: Values) => void }) {
  const form = useForm<Values>()
  return (
    <Form form={form} aria-label="example" onSubmit={form.handleSubmit(onValid)}>
      <input aria-label="Email" {...form.register('email')} />
      <select aria-label="Topic" {...form.register('topic')}>
        <option value="">Choose</option>
        <option value="help">Help</option>
      </select>
      <input type="checkbox" aria-label="Remember" {...form.register('remember')} />
      <input aria-label="Unregistered" name="other" defaultValue="not ours" />
      <button type="submit">Send</button>
    </Form>
  )
}

// hydrateRoot below runs inside act().
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

describe('Form', () => {
  it('sends values set without input events, as a password manager sets them', async () => {
    const onValid = vi.fn()
    render(<Example onValid={onValid} />)
    ;(screen.getByLabelText('Email') as HTMLInputElement).value = 'ada@example.com'
    ;(screen.getByLabelText('Topic') as HTMLSelectElement).value = 'help'
    ;(screen.getByLabelText('Remember') as HTMLInputElement).checked = true
    fireEvent.submit(screen.getByRole('form', { name: 'example' }))
    await waitFor(() => expect(onValid).toHaveBeenCalledTimes(1))
    expect(onValid.mock.calls[0]![0]).toEqual({ email: 'ada@example.com', topic: 'help', remember: true })
  })

  it('takes over what was typed into the prerendered page before hydration', async () => {
    const onValid = vi.fn()
    const container = document.createElement('div')
    container.innerHTML = renderToString(<Example onValid={onValid} />)
    document.body.append(container)
    // Typed while the script was on its way: no React listens yet.
    container.querySelector<HTMLInputElement>('input[name="email"]')!.value = 'early@example.com'
    container.querySelector<HTMLInputElement>('input[name="remember"]')!.checked = true

    await act(async () => {
      hydrateRoot(container, <Example onValid={onValid} />)
    })
    expect(container.querySelector<HTMLInputElement>('input[name="email"]')!.value).toBe('early@example.com')
    fireEvent.submit(container.querySelector('form')!)
    await waitFor(() => expect(onValid).toHaveBeenCalledTimes(1))
    expect(onValid.mock.calls[0]![0]).toEqual({ email: 'early@example.com', topic: '', remember: true })
    container.remove()
  })
})

import { act, render, screen, waitFor, within } from '@/test/testing-library'
import { afterEach, describe, expect, it } from 'vitest'
import { initI18n } from '@/lib/i18n'
import { notify } from '@/lib/notify'
import { ToasterSlot } from './toaster-slot'

const toasts = async () => within(await screen.findByRole('region', { name: /notifications/i }))

afterEach(() => notify.dismiss())

describe('the Toaster, loaded with the first toast (issue 27)', () => {
  it('renders nothing until a toast is asked for, then shows that toast', async () => {
    await initI18n('en')
    render(<ToasterSlot />)
    expect(screen.queryByRole('region', { name: /notifications/i })).toBeNull()
    act(() => void notify.success('Item saved'))
    expect(await (await toasts()).findByText('Item saved')).toBeTruthy()
  })

  it('dismisses a toast by the id notify gave (the validation toast replaces its predecessor)', async () => {
    await initI18n('en')
    render(<ToasterSlot />)
    let first: string | number = ''
    act(() => void (first = notify.error('Please fill in all required fields')))
    const region = await toasts()
    expect(await region.findByText('Please fill in all required fields')).toBeTruthy()
    act(() => {
      notify.dismiss(first)
      notify.error('Name must be at least 2 characters')
    })
    expect(await region.findByText('Name must be at least 2 characters')).toBeTruthy()
    // sonner removes it after a frame and its exit animation: slow in a loaded test run.
    await waitFor(() => expect(region.queryByText('Please fill in all required fields')).toBeNull(), {
      timeout: 5000,
    })
  })
})

import { QueryClientProvider } from '@tanstack/react-query'
import { act, fireEvent, render, renderHook, screen, waitFor } from '@/test/testing-library'
import { StrictMode, useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import { useGuardedMutation, useSingleFlight } from './use-guarded-mutation'

/** A request that answers only when the test says so: the slow network of a first press. */
function heldRequests() {
  const answers: Array<(value: string) => void> = []
  const send = vi.fn(
    (variables: string) => new Promise<string>((resolve) => answers.push(() => resolve(`done ${variables}`))),
  )
  const answerAll = () => answers.splice(0).forEach((answer) => answer(''))
  return { send, answerAll }
}

function SendButton({ send, mutationKey }: { send(v: string): Promise<string>; mutationKey?: string[] }) {
  const mutation = useGuardedMutation({ mutationFn: send, mutationKey })
  const [done, setDone] = useState(0)
  return (
    <>
      <button
        type="button"
        disabled={mutation.isPending}
        aria-busy={mutation.isPending || undefined}
        onClick={() => mutation.mutate('x', { onSuccess: () => setDone((n) => n + 1) })}
      >
        Send
      </button>
      <p>done {done}</p>
    </>
  )
}

/** Lets react-query's own awaits run, so a request that would go out has gone out. */
const flush = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)))

function renderWithClient(ui: React.ReactNode) {
  const client = createQueryClient()
  const view = render(
    <StrictMode>
      <QueryClientProvider client={client}>{ui}</QueryClientProvider>
    </StrictMode>,
  )
  return { client, ...view }
}

describe('useGuardedMutation: a second press while the request runs is ignored', () => {
  it('sends once for two clicks in a row, before React re-rendered the button', async () => {
    const { send, answerAll } = heldRequests()
    renderWithClient(<SendButton send={send} />)
    const button = screen.getByRole('button', { name: 'Send' })
    // Both clicks in one task: react-query's pending state would re-render only after a macrotask.
    act(() => {
      button.click()
      button.click()
    })
    await flush()
    expect(send).toHaveBeenCalledTimes(1)
    expect((button as HTMLButtonElement).disabled).toBe(true)
    expect(button.getAttribute('aria-busy')).toBe('true')
    fireEvent.click(button)
    await flush()
    expect(send).toHaveBeenCalledTimes(1)

    await act(async () => answerAll())
    expect(await screen.findByText('done 1')).toBeTruthy()
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false))
    // Once the answer is in, the next press is a new request.
    act(() => button.click())
    await flush()
    expect(send).toHaveBeenCalledTimes(2)
    await act(async () => answerAll())
  })

  it('lets a press through again after a failure', async () => {
    const send = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce('ok')
    renderWithClient(<SendButton send={send} />)
    const button = screen.getByRole('button', { name: 'Send' })
    act(() => button.click())
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false))
    act(() => button.click())
    expect(await screen.findByText('done 1')).toBeTruthy()
    expect(send).toHaveBeenCalledTimes(2)
  })

  it('with a mutation key, a form opened again (Back, then forward) while the first request runs sends nothing', async () => {
    const { send, answerAll } = heldRequests()
    function Toggle() {
      const [shown, setShown] = useState(true)
      return (
        <>
          <button type="button" onClick={() => setShown((s) => !s)}>
            Toggle
          </button>
          {shown ? <SendButton send={send} mutationKey={['test', 'send']} /> : null}
        </>
      )
    }
    renderWithClient(<Toggle />)
    act(() => screen.getByRole('button', { name: 'Send' }).click())
    fireEvent.click(screen.getByRole('button', { name: 'Toggle' }))
    fireEvent.click(screen.getByRole('button', { name: 'Toggle' }))
    const again = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement
    await waitFor(() => expect(again.disabled).toBe(true))
    act(() => again.click())
    await flush()
    expect(send).toHaveBeenCalledTimes(1)
    await act(async () => answerAll())
    await waitFor(() => expect(again.disabled).toBe(false))
  })
})

describe('useSingleFlight', () => {
  it('runs one task at a time and answers undefined for the ignored one', async () => {
    const { result } = renderHook(() => useSingleFlight())
    let finish: () => void = () => undefined
    const task = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)))
    let first: Promise<void> | undefined
    act(() => {
      first = result.current.run(task)
      expect(result.current.run(task)).toBeUndefined()
    })
    expect(task).toHaveBeenCalledTimes(1)
    expect(result.current.busy).toBe(true)
    await act(async () => {
      finish()
      await first
    })
    expect(result.current.busy).toBe(false)
    act(() => void result.current.run(task))
    expect(task).toHaveBeenCalledTimes(2)
    await act(async () => finish())
  })
})

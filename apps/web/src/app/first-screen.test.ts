import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { firstScreenCommitted, firstScreenSettled } from './first-screen'

describe('firstScreenSettled', () => {
  it('waits for the first screen and for its answers, then resolves', async () => {
    const client = new QueryClient()
    let answer: (value: string) => void = () => undefined
    void client.prefetchQuery({ queryKey: ['slow'], queryFn: () => new Promise<string>((r) => (answer = r)) })
    let settled = false
    const waiting = firstScreenSettled(client).then(() => (settled = true))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(settled).toBe(false)
    firstScreenCommitted()
    await new Promise((resolve) => setTimeout(resolve, 50))
    // Painted, but the screen's answer is still on its way.
    expect(settled).toBe(false)
    answer('here')
    await waiting
    expect(settled).toBe(true)
  })
})

import { afterEach, describe, expect, it, vi } from 'vitest'
import { within } from './within'

afterEach(() => vi.useRealTimers())

describe('within', () => {
  it("gives the promise's value when it comes in time", async () => {
    await expect(within(Promise.resolve('page'), 1000)).resolves.toBe('page')
  })

  it('gives undefined once the time is up', async () => {
    vi.useFakeTimers()
    const waiting = within(new Promise<string>(() => undefined), 1000)
    await vi.advanceTimersByTimeAsync(1000)
    await expect(waiting).resolves.toBeUndefined()
  })

  it('passes a rejection through', async () => {
    await expect(within(Promise.reject(new Error('gone')), 1000)).rejects.toThrow('gone')
  })
})

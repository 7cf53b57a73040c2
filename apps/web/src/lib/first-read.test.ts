import { describe, expect, it, vi } from 'vitest'

describe('first read', () => {
  it('is the first answer’s server time, less the time since the first request and a margin', async () => {
    vi.resetModules()
    const { firstRead, noteAnswer, noteRequestSent } = await import('./first-read')
    vi.spyOn(performance, 'now').mockReturnValueOnce(1000).mockReturnValueOnce(1300)
    noteAnswer('Fri, 27 Nov 2026 09:00:00 GMT')
    expect(firstRead()).toBeUndefined()
    noteRequestSent()
    noteRequestSent()
    noteAnswer(null)
    noteAnswer('not a date')
    noteAnswer('Fri, 27 Nov 2026 09:00:05 GMT')
    noteAnswer('Fri, 27 Nov 2026 09:00:09 GMT')
    expect(firstRead()).toEqual({ since: '2026-11-27T09:00:02.700Z', wallAt: expect.any(Number) })
  })
})

import { act, render } from '@/test/testing-library'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { inMemoryRouter } from '@/test/memory-router'
import { KEEP_SCROLL, ScrollRestoration } from './scroll-restoration'

/** The reader scrolls to `y` (the browser reports it with a scroll event). */
function scrollBy(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true })
  window.dispatchEvent(new Event('scroll'))
}

function setup(path = '/list') {
  const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined)
  const { router, element } = inMemoryRouter(
    path,
    <>
      <ScrollRestoration />
      <p id="details">Details</p>
    </>,
  )
  render(element)
  scrollTo.mockClear()
  return { router, scrollTo }
}

afterEach(() => {
  vi.restoreAllMocks()
  scrollBy(0)
})

describe('ScrollRestoration (spec 000 §2, docs/decisions/0020)', () => {
  it('starts a new page at the top, and returns to the reader’s place on Back and Forward', async () => {
    const { router, scrollTo } = setup()
    scrollBy(640)
    await act(() => router.navigate('/items/1'))
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0)
    scrollBy(120)

    await act(() => router.navigate(-1))
    expect(router.location.pathname).toBe('/list')
    expect(scrollTo).toHaveBeenLastCalledWith(0, 640)

    await act(() => router.navigate(1))
    expect(router.location.pathname).toBe('/items/1')
    expect(scrollTo).toHaveBeenLastCalledWith(0, 120)
  })

  it('starts a replaced entry at the top too', async () => {
    const { router, scrollTo } = setup()
    scrollBy(300)
    await act(() => router.navigate('/login', { replace: true }))
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0)
  })

  it('keeps the position for a navigation that asks to (a list’s own filters)', async () => {
    const { router, scrollTo } = setup()
    scrollBy(300)
    await act(() => router.navigate('/list?q=drill', { replace: true, state: KEEP_SCROLL }))
    expect(router.location.search).toBe('?q=drill')
    expect(scrollTo).not.toHaveBeenCalled()
  })

  it('scrolls to the anchor a link names', async () => {
    const { router, scrollTo } = setup()
    const scrollIntoView = vi.fn()
    document.getElementById('details')!.scrollIntoView = scrollIntoView
    await act(() => router.navigate('/list#details'))
    expect(scrollIntoView).toHaveBeenCalledOnce()
    expect(scrollTo).not.toHaveBeenCalled()
  })
})

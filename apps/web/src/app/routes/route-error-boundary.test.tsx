import { act, render, screen } from '@/test/testing-library'
import { Route, Routes, useLocation } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { initI18n } from '@/lib/i18n'
import { inMemoryRouter } from '@/test/memory-router'
import { RouteErrorBoundary } from './route-error-boundary'

function Broken(): never {
  throw new Error('Failed to fetch dynamically imported module')
}

function App() {
  return (
    <RouteErrorBoundary location={useLocation()}>
      <Routes>
        <Route path="/broken" element={<Broken />} />
        <Route path="/fine" element={<h1>Fine</h1>} />
      </Routes>
    </RouteErrorBoundary>
  )
}

describe('RouteErrorBoundary', () => {
  it('shows RouteError for a page that throws, and the next navigation tries again', async () => {
    await initI18n('en')
    // React reports the caught error on the console; that is expected here.
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const { router, element } = inMemoryRouter('/broken', <App />)
    render(element)
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Back to home' }).getAttribute('href')).toBe('/')

    await act(() => router.navigate('/fine'))
    expect(screen.getByRole('heading', { name: 'Fine' })).toBeTruthy()
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).toBeNull()
    vi.restoreAllMocks()
  })
})

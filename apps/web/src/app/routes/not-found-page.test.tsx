import { screen, waitFor } from '@/test/testing-library'
import { describe, expect, it } from 'vitest'
import { renderRoute } from '@/test/render-route'

describe('not-found page', () => {
  it('answers any unknown path with the spec text and a link home', async () => {
    await renderRoute('/no/such/page')

    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy()
    expect(screen.getByText("The page you're looking for doesn't exist.")).toBeTruthy()
    expect(screen.getByRole('link', { name: /back to home/i }).getAttribute('href')).toBe('/')
    await waitFor(() => expect(document.title).toBe('Page not found · Circles'))
  })

  it('speaks German when German is chosen', async () => {
    await renderRoute('/gibt-es-nicht', 'de')

    expect(await screen.findByText('Die Seite, die du suchst, gibt es nicht.')).toBeTruthy()
    expect(screen.getByRole('link', { name: /zur startseite/i }).getAttribute('href')).toBe('/')
  })
})

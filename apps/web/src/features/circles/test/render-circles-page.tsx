import type { Language } from '@circles/shared'
import { screen, within } from '@/test/testing-library'
import { startSession } from '@/lib/session'
import { renderPages } from '@/test/render-pages'
import { testUser, validToken } from '@/test/tokens'
import { CirclePage } from '../routes/circle-page'
import { CirclesPage } from '../routes/circles-page'
import { CreateCirclePage } from '../routes/create-circle-page'

export { type ApiHandler, json, mockApi, sentBodies } from '@/test/mock-api'

const pages = {
  '/circles': CirclesPage,
  '/circles/create': CreateCirclePage,
  '/circles/:id': CirclePage,
  '/circle/:id': CirclePage,
}

/** A circles screen, signed in as `testUser` (or `as`). */
export function renderCirclesPage(
  path: string,
  { language = 'en', as = testUser }: { language?: Language; as?: typeof testUser } = {},
) {
  startSession(validToken({ sub: as.id }), as)
  return renderPages(pages, path, { language, namespaces: ['circles', 'invitations'] })
}

/** The toaster's region, to find toasts in. */
export const toasts = () => within(screen.getByRole('region', { name: /notifications/i }))

const DAY_MS = 24 * 60 * 60 * 1000
/** An ISO timestamp `days` days before now. */
export const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString()

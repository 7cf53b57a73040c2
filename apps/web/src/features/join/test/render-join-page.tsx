import type { Language } from '@circles/shared'
import { renderPages } from '@/test/render-pages'
import { JoinPage } from '../routes/join-page'

export { json, mockApi } from '@/test/mock-api'

export const renderJoinPage = (path: string, language: Language = 'en') =>
  renderPages({ '/join': JoinPage }, path, { language, namespaces: ['invitations'] })

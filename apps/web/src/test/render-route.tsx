import { render } from '@/test/testing-library'
import type { Language } from '@circles/shared'
import { AppProviders } from '@/app/providers'
import { AppRoutes } from '@/app/route-table'
import { initI18n } from '@/lib/i18n'
import { inMemoryRouter } from '@/test/memory-router'

/** Renders the real route table at `path` with the app's providers, as the app would after loading there. */
export async function renderRoute(path: string, language: Language = 'en') {
  const i18n = await initI18n(language)
  await i18n.changeLanguage(language)
  const { router, element } = inMemoryRouter(path, <AppRoutes />)
  return { router, ...render(<AppProviders>{element}</AppProviders>) }
}

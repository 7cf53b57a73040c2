import type { ComponentType } from 'react'
import type { RouteObject } from 'react-router'
import { PageLoader } from '@/components/page-loader'
import { AppLayout } from '@/app/layouts/app-layout'
import { RootLayout } from '@/app/layouts/root-layout'
import { RedirectIfAuthenticated, RequireAuth } from '@/app/routes/guards'
import { RouteError } from '@/app/routes/route-error'
import { loadNamespaces } from '@/lib/i18n'

/**
 * A route whose code and translation namespaces load together before it renders, so a navigation
 * shows the new page complete instead of a Suspense fallback. Every page is its own chunk.
 */
function lazyPage(load: () => Promise<ComponentType>, ...namespaces: string[]): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      const [Component] = await Promise.all([load(), loadNamespaces(...namespaces)])
      return { Component }
    },
  }
}

export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteError,
    children: [
      {
        // Spec 000 §2: the landing page is for visitors; a signed-in user goes to the dashboard.
        Component: RedirectIfAuthenticated,
        children: [
          {
            index: true,
            ...lazyPage(
              async () => (await import('@/features/landing/routes/home-page')).HomePage,
              'landing',
            ),
          },
        ],
      },
      {
        Component: RequireAuth,
        children: [
          {
            Component: AppLayout,
            children: [
              {
                path: 'dashboard',
                ...lazyPage(
                  async () => (await import('@/features/dashboard/routes/dashboard-page')).DashboardPage,
                  'dashboard',
                ),
              },
            ],
          },
        ],
      },
      {
        path: '*',
        ...lazyPage(async () => (await import('@/app/routes/not-found-page')).NotFoundPage),
      },
    ],
  },
]

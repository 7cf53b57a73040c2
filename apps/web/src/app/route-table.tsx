import { type ComponentType, lazy, useEffect, useState } from 'react'
import { matchRoutes, type RouteObject, useLocation, useNavigate, useRoutes } from 'react-router'
import { RootLayout } from '@/app/layouts/root-layout'
import { firstScreenCommitted } from '@/app/first-screen'
import { lendNavigate } from '@/app/outside-navigation'
import { RedirectIfAuthenticated, RequireAuth } from '@/app/routes/guards'
import { RouteErrorBoundary } from '@/app/routes/route-error-boundary'
import { type ScreenData, type ScreenPlace, screenData as data } from '@/app/screen-data'
import { loadNamespaces } from '@/lib/i18n'
import { queryClient } from '@/lib/query-client'

/** A page's code: its source module (for the build, see routeSources) and how to load its component. */
interface PageSource {
  module: string
  load: () => Promise<ComponentType>
  /** Mounted afresh when the path changes (remountOnPath). */
  remount?: boolean
}

function source(module: string, load: () => Promise<ComponentType>): PageSource {
  return { module, load }
}

/** Each page's component, so every route that shows a page shows the same one (see lazyPage). */
const lazyPages = new Map<PageSource['load'], ComponentType>()
/** How to start loading a lazy page before it renders (preloadRoute), by its component. */
const preloads = new WeakMap<ComponentType, () => Promise<unknown>>()
/** What a route's page needs loaded, by its component: its module and translation namespaces. */
const needs = new WeakMap<ComponentType, { module: string; namespaces: string[] }>()

/**
 * A route whose code and translation namespaces load together before it renders, so a navigation
 * shows the new page complete instead of a Suspense fallback (navigations are transitions: the old
 * page stays until the new one is ready). Every page is its own chunk. The routes of one page share
 * one component, so React keeps the page's state from one to the other (a list and its /edit path).
 */
function lazyPage(
  { module, load, remount }: PageSource,
  ...namespaces: string[]
): Pick<RouteObject, 'Component'> {
  let Component = lazyPages.get(load)
  if (!Component) {
    let loading: Tracked<ComponentType> | undefined
    const start = () =>
      (loading ??= settledInPlace(
        Promise.all([load(), loadNamespaces(...namespaces)]).then(([Page]) =>
          remount ? keyedByPath(Page) : Page,
        ),
      ))
    const Lazy = lazy(() => start().then((Page) => ({ default: Page })))
    // A page whose code is already here (the first page, loaded since startup; main.tsx waits for it)
    // renders at once: React.lazy always suspends once, and React then keeps the loader on screen for at
    // least 300 ms. Decided once per mount, so the page is never swapped for another element type.
    Component = function RoutePage() {
      const ready = start()
      const [Page] = useState<ComponentType>(() => (ready.status === 'fulfilled' ? ready.value! : Lazy))
      return <Page />
    }
    lazyPages.set(load, Component)
    preloads.set(Component, start)
    needs.set(Component, { module, namespaces })
  }
  return { Component }
}

type Tracked<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T }

/** Marks the promise with its outcome, readable at once once it has settled. */
function settledInPlace<T>(promise: Promise<T>): Tracked<T> {
  const tracked: Tracked<T> = promise
  tracked.status = 'pending'
  tracked.then(
    (value) => Object.assign(tracked, { status: 'fulfilled', value }),
    () => Object.assign(tracked, { status: 'rejected' }),
  )
  return tracked
}

/**
 * A page that keeps local state (filters, dialogs, banners) for the record its path names starts afresh
 * when the path changes: react-router keeps the same component mounted from /blockchain/item/1 to
 * /blockchain, and state from the first would leak into the second.
 */
function remountOnPath(page: PageSource): PageSource {
  return { ...page, remount: true }
}

function keyedByPath(Page: ComponentType): ComponentType {
  return function PageForPath() {
    return <Page key={useLocation().pathname} />
  }
}

/** Every page, by name (exported for route-sources.test.ts). */
export const page = {
  home: source('src/features/landing/routes/home-page.tsx', () =>
    import('@/features/landing/routes/home-page').then((m) => m.HomePage),
  ),
  about: source('src/features/pages/routes/about-page.tsx', () =>
    import('@/features/pages/routes/about-page').then((m) => m.AboutPage),
  ),
  privacy: source('src/features/pages/routes/privacy-page.tsx', () =>
    import('@/features/pages/routes/privacy-page').then((m) => m.PrivacyPage),
  ),
  terms: source('src/features/pages/routes/terms-page.tsx', () =>
    import('@/features/pages/routes/terms-page').then((m) => m.TermsPage),
  ),
  contact: source('src/features/contact/routes/contact-page.tsx', () =>
    import('@/features/contact/routes/contact-page').then((m) => m.ContactPage),
  ),
  login: source('src/features/auth/routes/login-page.tsx', () =>
    import('@/features/auth/routes/login-page').then((m) => m.LoginPage),
  ),
  register: source('src/features/auth/routes/register-page.tsx', () =>
    import('@/features/auth/routes/register-page').then((m) => m.RegisterPage),
  ),
  forgotPassword: source('src/features/auth/routes/forgot-password-page.tsx', () =>
    import('@/features/auth/routes/forgot-password-page').then((m) => m.ForgotPasswordPage),
  ),
  resetPassword: source('src/features/auth/routes/reset-password-page.tsx', () =>
    import('@/features/auth/routes/reset-password-page').then((m) => m.ResetPasswordPage),
  ),
  verify: source('src/features/auth/routes/verify-page.tsx', () =>
    import('@/features/auth/routes/verify-page').then((m) => m.VerifyPage),
  ),
  resendVerification: source('src/features/auth/routes/resend-verification-page.tsx', () =>
    import('@/features/auth/routes/resend-verification-page').then((m) => m.ResendVerificationPage),
  ),
  dashboard: source('src/features/dashboard/routes/dashboard-page.tsx', () =>
    import('@/features/dashboard/routes/dashboard-page').then((m) => m.DashboardPage),
  ),
  circles: source('src/features/circles/routes/circles-page.tsx', () =>
    import('@/features/circles/routes/circles-page').then((m) => m.CirclesPage),
  ),
  createCircle: source('src/features/circles/routes/create-circle-page.tsx', () =>
    import('@/features/circles/routes/create-circle-page').then((m) => m.CreateCirclePage),
  ),
  circle: remountOnPath(
    source('src/features/circles/routes/circle-page.tsx', () =>
      import('@/features/circles/routes/circle-page').then((m) => m.CirclePage),
    ),
  ),
  join: source('src/features/join/routes/join-page.tsx', () =>
    import('@/features/join/routes/join-page').then((m) => m.JoinPage),
  ),
  circleItems: source('src/features/items/routes/circle-items-page.tsx', () =>
    import('@/features/items/routes/circle-items-page').then((m) => m.CircleItemsPage),
  ),
  items: source('src/features/items/routes/items-page.tsx', () =>
    import('@/features/items/routes/items-page').then((m) => m.ItemsPage),
  ),
  item: remountOnPath(
    source('src/features/items/routes/item-page.tsx', () =>
      import('@/features/items/routes/item-page').then((m) => m.ItemPage),
    ),
  ),
  labels: source('src/features/items/routes/labels-page.tsx', () =>
    import('@/features/items/routes/labels-page').then((m) => m.LabelsPage),
  ),
  itemCode: source('src/features/items/routes/item-code-page.tsx', () =>
    import('@/features/items/routes/item-code-page').then((m) => m.ItemCodePage),
  ),
  loans: source('src/features/loans/routes/loans-page.tsx', () =>
    import('@/features/loans/routes/loans-page').then((m) => m.LoansPage),
  ),
  handover: remountOnPath(
    source('src/features/items/routes/handover-page.tsx', () =>
      import('@/features/items/routes/handover-page').then((m) => m.HandoverPage),
    ),
  ),
  ledger: remountOnPath(
    source('src/features/ledger/routes/ledger-page.tsx', () =>
      import('@/features/ledger/routes/ledger-page').then((m) => m.LedgerPage),
    ),
  ),
  block: remountOnPath(
    source('src/features/ledger/routes/block-page.tsx', () =>
      import('@/features/ledger/routes/block-page').then((m) => m.BlockPage),
    ),
  ),
  certificate: remountOnPath(
    source('src/features/ledger/routes/certificate-page.tsx', () =>
      import('@/features/ledger/routes/certificate-page').then((m) => m.CertificatePage),
    ),
  ),
  unsubscribe: source('src/features/profile/routes/unsubscribe-page.tsx', () =>
    import('@/features/profile/routes/unsubscribe-page').then((m) => m.UnsubscribePage),
  ),
  profile: source('src/features/profile/routes/profile-page.tsx', () =>
    import('@/features/profile/routes/profile-page').then((m) => m.ProfilePage),
  ),
  accountDeleted: source('src/features/profile/routes/account-deleted-page.tsx', () =>
    import('@/features/profile/routes/account-deleted-page').then((m) => m.AccountDeletedPage),
  ),
  notFound: source('src/app/routes/not-found-page.tsx', () =>
    import('@/app/routes/not-found-page').then((m) => m.NotFoundPage),
  ),
}

/**
 * Every route of the app. Which chrome (app header, footer) a path gets is decided by the layout from
 * spec 000 §2's list, not by nesting here.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    children: [
      {
        // Spec 000 §2: the landing page is for visitors; a signed-in user goes to the dashboard.
        Component: RedirectIfAuthenticated,
        children: [{ index: true, ...lazyPage(page.home, 'landing') }],
      },
      { path: 'about', ...lazyPage(page.about, 'pages') },
      { path: 'privacy', ...lazyPage(page.privacy, 'pages') },
      { path: 'terms', ...lazyPage(page.terms, 'pages') },
      { path: 'contact', ...lazyPage(page.contact, 'contact') },
      { path: 'login', ...lazyPage(page.login, 'auth') },
      { path: 'register', ...lazyPage(page.register, 'auth') },
      { path: 'forgot-password', ...lazyPage(page.forgotPassword, 'auth') },
      { path: 'reset-password', ...lazyPage(page.resetPassword, 'auth') },
      { path: 'verify', ...lazyPage(page.verify, 'auth') },
      // Public: a visitor with a token is stored and sent to /login by the page itself (spec 000 §2).
      { path: 'join', ...lazyPage(page.join, 'invitations') },
      { path: 'resend-verification', ...lazyPage(page.resendVerification, 'auth') },
      // Spec 001 §2: signed out, the page itself says 'Please login to view your profile'.
      { path: 'profile', ...lazyPage(page.profile, 'profile') },
      // From a notice email; works without signing in.
      { path: 'unsubscribe', ...lazyPage(page.unsubscribe, 'profile') },
      // Issue 24: where a person lands, signed out, after deleting their account.
      { path: 'account-deleted', ...lazyPage(page.accountDeleted, 'profile') },
      {
        Component: RequireAuth,
        children: [
          { path: 'dashboard', ...lazyPage(page.dashboard, 'dashboard', 'loans'), handle: data.dashboard },
          { path: 'circles', ...lazyPage(page.circles, 'circles'), handle: data.circles },
          { path: 'circles/create', ...lazyPage(page.createCircle, 'circles') },
          // Spec 001 §2: both path forms are in use; they are one screen.
          { path: 'circles/:id', ...lazyPage(page.circle, 'circles', 'invitations'), handle: data.circle },
          { path: 'circle/:id', ...lazyPage(page.circle, 'circles', 'invitations'), handle: data.circle },
          // Spec 001 §2: with or without the trailing slash (react-router matches both).
          {
            path: 'circle/:circleId/items',
            ...lazyPage(page.circleItems, 'items', 'loans'),
            handle: data.circleItems,
          },
          { path: 'circle/:circleId/items/:itemId/edit', ...lazyPage(page.circleItems, 'items', 'loans') },
          { path: 'items', ...lazyPage(page.items, 'items', 'loans'), handle: data.items },
          { path: 'items/:itemId', ...lazyPage(page.item, 'items', 'loans'), handle: data.item },
          {
            path: 'items/:itemId/handover',
            ...lazyPage(page.handover, 'items', 'loans'),
            handle: data.handover,
          },
          // Issue 27: a circle's QR labels, and where a label's QR code leads (signed out: sign in first).
          { path: 'circles/:circleId/labels', ...lazyPage(page.labels, 'items') },
          { path: 'i/:code', ...lazyPage(page.itemCode, 'items') },
          // Issue 26: borrowed, lent and requested.
          { path: 'loans', ...lazyPage(page.loans, 'loans') },
          { path: 'blockchain', ...lazyPage(page.ledger, 'ledger'), handle: data.ledger },
          { path: 'blockchain/circle/:circleId', ...lazyPage(page.ledger, 'ledger'), handle: data.ledger },
          { path: 'blockchain/item/:itemId', ...lazyPage(page.ledger, 'ledger'), handle: data.ledger },
          { path: 'blockchain/:id', ...lazyPage(page.block, 'ledger') },
          { path: 'blockchain/:id/certificate', ...lazyPage(page.certificate, 'ledger') },
        ],
      },
      { path: '*', ...lazyPage(page.notFound) },
    ],
  },
]

/**
 * Starts loading the code and strings of the pages `pathname` shows; resolves when they are there (or
 * failed: the page then renders RouteError). The first page starts at startup (app/router.ts), and a
 * prerendered page hydrates only once it is loaded, so the markup matches.
 */
export async function preloadRoute(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? []
  const loads = matches.map(({ route }) => (route.Component ? preloads.get(route.Component)?.() : undefined))
  await Promise.allSettled(loads)
}

export interface RouteSource {
  /** The route's path, with its parameters: `/items/:itemId`. */
  path: string
  /** The page's source module, as the build manifest names it: `src/features/items/routes/item-page.tsx`. */
  module: string
  namespaces: string[]
}

/**
 * Every route that shows a page, with the page's source module and translation namespaces. The build
 * turns them into the scripts a screen's HTML preloads (scripts/prerender.mjs, docs/decisions/0067), so
 * a screen's own code loads beside the app's instead of after it.
 */
export function routeSources(children: RouteObject[] = routes, parent = ''): RouteSource[] {
  return children.flatMap((route) => {
    const path = route.path ? `${parent.replace(/\/$/, '')}/${route.path.replace(/^\//, '')}` : parent || '/'
    const need = route.Component ? needs.get(route.Component) : undefined
    const own = need && !route.children ? [{ path, ...need }] : []
    return [...own, ...routeSources(route.children ?? [], path)]
  })
}

/**
 * Starts the first requests of the screen at `pathname` (the route's `handle`, app/screen-data.ts) for
 * the signed-in user: on a first load they go out beside the screen's code, not after its first render.
 */
export function prefetchRouteData(
  pathname: string,
  search: URLSearchParams,
  userId: string,
): Promise<unknown>[] {
  const match = matchRoutes(routes, pathname)?.at(-1)
  const screen = match?.route.handle as ScreenData | undefined
  const place: ScreenPlace = { params: match?.params ?? {}, search, userId }
  const requests = screen?.(queryClient, place) ?? []
  // A failed request is the page's to show: it finds the query in its error state and asks again.
  for (const request of requests) request.catch(() => undefined)
  return requests
}

/** Whether the screen at `pathname` has first requests of its own (app/screen-data.ts). */
export function hasScreenData(pathname: string): boolean {
  return matchRoutes(routes, pathname)?.at(-1)?.route.handle !== undefined
}

/**
 * The app's routes at the current location, in whichever router renders them: BrowserRouter in the app,
 * StaticRouter when prerendering, MemoryRouter in tests. Declarative mode: the data router's code
 * (loaders, actions, fetchers) is not in the bundle. Anything a page throws shows RouteError.
 */
export function AppRoutes() {
  const location = useLocation()
  const navigate = useNavigate()
  useEffect(() => lendNavigate(navigate), [navigate])
  useEffect(firstScreenCommitted, [])
  return <RouteErrorBoundary location={location}>{useRoutes(routes)}</RouteErrorBoundary>
}

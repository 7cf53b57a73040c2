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

/** Each page's component, so every route that shows a page shows the same one (see lazyPage). */
const lazyPages = new Map<() => Promise<ComponentType>, ComponentType>()
/** How to start loading a lazy page before it renders (preloadRoute), by its component. */
const preloads = new WeakMap<ComponentType, () => Promise<unknown>>()

/**
 * A route whose code and translation namespaces load together before it renders, so a navigation
 * shows the new page complete instead of a Suspense fallback (navigations are transitions: the old
 * page stays until the new one is ready). Every page is its own chunk. The routes of one page share
 * one component, so React keeps the page's state from one to the other (a list and its /edit path).
 */
function lazyPage(
  load: () => Promise<ComponentType>,
  ...namespaces: string[]
): Pick<RouteObject, 'Component'> {
  let Component = lazyPages.get(load)
  if (!Component) {
    let loading: Tracked<ComponentType> | undefined
    const start = () =>
      (loading ??= settledInPlace(
        Promise.all([load(), loadNamespaces(...namespaces)]).then(([Page]) => Page),
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
function remountOnPath(load: () => Promise<ComponentType>): () => Promise<ComponentType> {
  return async () => {
    const Page = await load()
    return function PageForPath() {
      return <Page key={useLocation().pathname} />
    }
  }
}

const page = {
  home: () => import('@/features/landing/routes/home-page').then((m) => m.HomePage),
  about: () => import('@/features/pages/routes/about-page').then((m) => m.AboutPage),
  privacy: () => import('@/features/pages/routes/privacy-page').then((m) => m.PrivacyPage),
  terms: () => import('@/features/pages/routes/terms-page').then((m) => m.TermsPage),
  contact: () => import('@/features/contact/routes/contact-page').then((m) => m.ContactPage),
  login: () => import('@/features/auth/routes/login-page').then((m) => m.LoginPage),
  register: () => import('@/features/auth/routes/register-page').then((m) => m.RegisterPage),
  forgotPassword: () =>
    import('@/features/auth/routes/forgot-password-page').then((m) => m.ForgotPasswordPage),
  resetPassword: () => import('@/features/auth/routes/reset-password-page').then((m) => m.ResetPasswordPage),
  verify: () => import('@/features/auth/routes/verify-page').then((m) => m.VerifyPage),
  resendVerification: () =>
    import('@/features/auth/routes/resend-verification-page').then((m) => m.ResendVerificationPage),
  dashboard: () => import('@/features/dashboard/routes/dashboard-page').then((m) => m.DashboardPage),
  circles: () => import('@/features/circles/routes/circles-page').then((m) => m.CirclesPage),
  createCircle: () => import('@/features/circles/routes/create-circle-page').then((m) => m.CreateCirclePage),
  circle: remountOnPath(() => import('@/features/circles/routes/circle-page').then((m) => m.CirclePage)),
  join: () => import('@/features/join/routes/join-page').then((m) => m.JoinPage),
  circleItems: () => import('@/features/items/routes/circle-items-page').then((m) => m.CircleItemsPage),
  items: () => import('@/features/items/routes/items-page').then((m) => m.ItemsPage),
  item: remountOnPath(() => import('@/features/items/routes/item-page').then((m) => m.ItemPage)),
  labels: () => import('@/features/items/routes/labels-page').then((m) => m.LabelsPage),
  itemCode: () => import('@/features/items/routes/item-code-page').then((m) => m.ItemCodePage),
  loans: () => import('@/features/loans/routes/loans-page').then((m) => m.LoansPage),
  handover: remountOnPath(() => import('@/features/items/routes/handover-page').then((m) => m.HandoverPage)),
  ledger: remountOnPath(() => import('@/features/ledger/routes/ledger-page').then((m) => m.LedgerPage)),
  block: remountOnPath(() => import('@/features/ledger/routes/block-page').then((m) => m.BlockPage)),
  certificate: remountOnPath(() =>
    import('@/features/ledger/routes/certificate-page').then((m) => m.CertificatePage),
  ),
  unsubscribe: () => import('@/features/profile/routes/unsubscribe-page').then((m) => m.UnsubscribePage),
  profile: () => import('@/features/profile/routes/profile-page').then((m) => m.ProfilePage),
  accountDeleted: () =>
    import('@/features/profile/routes/account-deleted-page').then((m) => m.AccountDeletedPage),
  notFound: () => import('@/app/routes/not-found-page').then((m) => m.NotFoundPage),
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

/**
 * Starts the first requests of the screen at `pathname` (the route's `handle`, app/screen-data.ts) for
 * the signed-in user: on a first load they go out beside the screen's code, not after its first render.
 */
export function prefetchRouteData(pathname: string, search: URLSearchParams, userId: string): void {
  const match = matchRoutes(routes, pathname)?.at(-1)
  const screen = match?.route.handle as ScreenData | undefined
  const place: ScreenPlace = { params: match?.params ?? {}, search, userId }
  // A failed request is the page's to show: it finds the query in its error state and asks again.
  for (const request of screen?.(queryClient, place) ?? []) request.catch(() => undefined)
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

import { Navigate, Outlet, useLocation } from 'react-router'
import { isLeavingAfterLogout } from '@/lib/sign-out'
import { useSession } from '@/lib/use-session'

/**
 * Protected routes (spec 000 §2): a visitor, or a user whose session just ended (401, expired token),
 * goes to /login?returnUrl=<this page> and comes back after signing in. After the logout button the
 * browser is already leaving for the landing page, so nothing is shown in between.
 */
export function RequireAuth() {
  const { isAuthenticated } = useSession()
  const location = useLocation()
  if (!isAuthenticated) {
    if (isLeavingAfterLogout()) return null
    const back = `${location.pathname}${location.search}${location.hash}`
    return <Navigate to={`/login?returnUrl=${encodeURIComponent(back)}`} replace />
  }
  return <Outlet />
}

/** Pages only for visitors, like the landing page. */
export function RedirectIfAuthenticated() {
  const { isAuthenticated } = useSession()
  return isAuthenticated ? <Navigate to="/dashboard" replace /> : <Outlet />
}

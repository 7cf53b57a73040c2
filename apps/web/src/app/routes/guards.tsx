import { Navigate, Outlet, useLocation } from 'react-router'
import { useSession } from '@/lib/use-session'

/** Protected routes (spec 000 §2): a visitor goes to /login and comes back here after signing in. */
export function RequireAuth() {
  const { isAuthenticated } = useSession()
  const location = useLocation()
  if (!isAuthenticated) {
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

import { type ReactNode, useLayoutEffect } from 'react'
import {
  type Location,
  MemoryRouter,
  type NavigateFunction,
  type NavigationType,
  useLocation,
  useNavigate,
  useNavigationType,
} from 'react-router'

/** What a test reads of its router: the location on screen, how it was reached, and navigate. */
export interface TestRouter {
  location: Location
  action: NavigationType
  navigate: NavigateFunction
}

/** Reports the router's state each time a navigation commits (the new page is on screen). */
function RouterProbe({ onCommit }: { onCommit: (state: TestRouter) => void }) {
  const location = useLocation()
  const action = useNavigationType()
  const navigate = useNavigate()
  useLayoutEffect(() => {
    onCommit({ location, action, navigate })
  }, [location, action, navigate, onCommit])
  return null
}

/** `children` in a MemoryRouter that starts at `path`, and the TestRouter that follows it. */
export function inMemoryRouter(path: string, children: ReactNode) {
  const router = {} as TestRouter
  const element = (
    <MemoryRouter initialEntries={[path]}>
      <RouterProbe onCommit={(state) => Object.assign(router, state)} />
      {children}
    </MemoryRouter>
  )
  return { router, element }
}

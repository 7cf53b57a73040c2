import { Component, type ReactNode } from 'react'
import type { Location } from 'react-router'
import { RouteError } from '@/app/routes/route-error'

interface Props {
  location: Location
  children: ReactNode
}

interface State {
  failed: boolean
  /** The location the children were rendered for: another one is a navigation, which tries again. */
  location: Location
}

/**
 * The root route's error boundary, as a data router had it: anything a page throws while loading (a
 * chunk gone after a deploy) or rendering shows RouteError in place of the app, until the next
 * navigation. React reports the error itself (console).
 */
export class RouteErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, location: this.props.location }

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true }
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.location === state.location ? null : { failed: false, location: props.location }
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children
  }
}

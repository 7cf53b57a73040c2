import { type ComponentType, createElement, lazy } from 'react'
import { ON_SERVER } from './server-render'

/** How each lazy part loads, by name. */
const loaders = new Map<string, () => Promise<void>>()
/** The server's render of a screen: the lazy parts it rendered (entry-server.tsx). */
let rendered: Set<string> | undefined

/**
 * A component whose code loads when it first renders (React's `lazy`), that a screen rendered on the server
 * with its data can contain (docs/decisions/0068). The server's render records it by `name`; the browser
 * loads it before it hydrates that screen (`loadParts`), so nothing waits for code in that first render
 * (when the app still drew over the screen, a part that suspended there left the server's markup beside
 * the app's: two Accept buttons in the inbox).
 */
export function lazyPart<P extends object>(
  name: string,
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined
  let loading: Promise<void> | undefined
  const preload = () =>
    (loading ??= load().then((component) => {
      loaded = component
    }))
  loaders.set(name, preload)
  const Lazy = lazy(() => preload().then(() => ({ default: loaded! })))
  function LazyPart(props: P) {
    if (ON_SERVER) rendered?.add(name)
    return loaded ? createElement(loaded, props) : createElement(Lazy, props)
  }
  LazyPart.displayName = `LazyPart(${name})`
  return LazyPart
}

/** The server: `render`'s result, and the lazy parts it rendered. */
export async function recordParts<T>(render: () => Promise<T>): Promise<[T, string[]]> {
  const parts = new Set<string>()
  rendered = parts
  try {
    return [await render(), [...parts]]
  } finally {
    rendered = undefined
  }
}

/** The browser, before it hydrates a rendered screen: its lazy parts' code (names it does not know pass). */
export function loadParts(names: readonly string[]): Promise<unknown> {
  return Promise.all(
    names.map((name) =>
      loaders
        .get(name)?.()
        .catch(() => undefined),
    ),
  )
}

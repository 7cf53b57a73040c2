/**
 * Testing Library for the web tests: @testing-library/preact, as the app renders with Preact
 * (docs/decisions/0061), with the signatures of React's Testing Library, since our components are typed
 * with React's types. Every test imports from here.
 */
import * as preactLibrary from '@testing-library/preact'
import { fireEvent as domFireEvent } from '@testing-library/dom'
import type { ComponentChild, ComponentType as PreactComponentType } from 'preact'
import { act as preactAct } from 'preact/test-utils'
import type { ComponentType, ReactNode } from 'react'

export { cleanup, screen, waitFor, within } from '@testing-library/preact'

type Wrapper = ComponentType<{ children: ReactNode }>
type PreactWrapper = PreactComponentType<{ children?: ComponentChild }>

/** Runs the callback and then every render and effect it caused; awaits it when it returns a promise. */
export function act(callback: () => unknown): Promise<void> {
  return preactAct(callback as () => void | Promise<void>)
}

export interface RenderOptions {
  container?: HTMLElement
  wrapper?: Wrapper
}

export function render(ui: ReactNode, options: RenderOptions = {}) {
  return preactLibrary.render(ui as ComponentChild, {
    container: options.container,
    wrapper: options.wrapper as unknown as PreactWrapper | undefined,
  })
}

export function renderHook<Result, Props>(
  callback: (props: Props) => Result,
  options: { initialProps?: Props; wrapper?: Wrapper } = {},
) {
  return preactLibrary.renderHook(callback, {
    initialProps: options.initialProps,
    // React's component type for Preact's: the same function at run time.
    wrapper: options.wrapper as never,
  })
}

/** A text field, whose React `onChange` preact/compat listens to as the `input` event. */
function typedInto(element: Document | Element | Window | Node): boolean {
  if (element instanceof HTMLTextAreaElement) return true
  return element instanceof HTMLInputElement && !/^(checkbox|radio|file)$/.test(element.type)
}

function inAct<T>(fire: () => T): T {
  let result!: T
  void preactAct(() => {
    result = fire()
  })
  return result
}

/**
 * The DOM's fireEvent, each event inside `act` (as React's Testing Library does), and `change` on a
 * text field fired as `input`, which is what reaches its onChange (a select, a checkbox or a file
 * input keeps `change`, as in the browser).
 */
export const fireEvent = ((element, event) =>
  inAct(() => domFireEvent(element, event))) as typeof domFireEvent
for (const key of Object.keys(domFireEvent) as (keyof typeof domFireEvent & string)[]) {
  fireEvent[key] = ((element: Element, init?: object) =>
    inAct(() => domFireEvent[key === 'change' && typedInto(element) ? 'input' : key](element, init))) as never
}

import { renderToString, renderToStringAsync } from 'preact-render-to-string'
import type { VNode } from 'preact'
import { beforeEach, describe, expect, it } from 'vitest'
import { act, render, screen } from '@/test/testing-library'
import { hydrate } from 'preact'
import { useId, useState } from 'react'
import { prerenderFrame, Staged, stageFirstRender, stageHydration, stageServerRender } from './staged'

function Page({ withSecond = true }: { withSecond?: boolean }) {
  return (
    <main>
      <h1>Heading</h1>
      <Staged>
        <p>first</p>
      </Staged>
      {withSecond ? (
        <Staged>
          <p>second</p>
        </Staged>
      ) : null}
      <Staged>
        <p>third</p>
      </Staged>
    </main>
  )
}

/** Resolves after the next message task: the staging releases one part per task. */
const nextTask = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(undefined)
  })

const shownParts = () => screen.queryAllByText(/first|second|third/).map((p) => p.textContent)

describe('Staged', () => {
  // A test's staging ends once its parts have had their turns.
  beforeEach(async () => {
    for (let task = 0; task < 4; task++) await act(nextTask)
  })

  it('renders at once outside a first render (navigations, tests, hydration)', () => {
    render(<Page />)
    expect(shownParts()).toEqual(['first', 'second', 'third'])
  })

  it('during the first render, shows the parts one per task, in page order, and then stops staging', async () => {
    stageFirstRender()
    render(<Page />)
    expect(screen.getByRole('heading', { name: 'Heading' })).toBeTruthy()
    expect(shownParts()).toEqual([])
    const seen: (string | null)[][] = []
    for (let task = 0; task < 4; task++) {
      await act(nextTask)
      seen.push(shownParts())
    }
    expect(seen.slice(0, 3)).toEqual([['first'], ['first', 'second'], ['first', 'second', 'third']])
    // Staging has ended: a part mounted later shows at once.
    render(
      <Staged>
        <p>later</p>
      </Staged>,
    )
    expect(screen.getByText('later')).toBeTruthy()
  })

  it('skips a part that went away before its turn', async () => {
    stageFirstRender()
    const { rerender } = render(<Page />)
    await act(() => rerender(<Page withSecond={false} />))
    await act(nextTask)
    expect(shownParts()).toEqual(['first'])
    await act(nextTask)
    expect(shownParts()).toEqual(['first', 'third'])
  })

  it('renders none of the parts into a prerendered frame', () => {
    prerenderFrame(true)
    try {
      const html = renderToString((<Page />) as unknown as VNode)
      const empty = '<div data-part class="contents"></div>'
      expect(html).toBe(`<main><h1>Heading</h1>${empty.repeat(3)}</main>`)
    } finally {
      prerenderFrame(false)
    }
  })

  it('hydrates a server-rendered page part by part, one per task, keeping every element of it', async () => {
    function Counter({ name }: { name: string }) {
      const [count, setCount] = useState(0)
      return <button onClick={() => setCount(count + 1)}>{`${name} ${count}`}</button>
    }
    const page = (
      <main>
        <h1>Heading</h1>
        <Staged>
          <Counter name="first" />
          <p>more of the first</p>
        </Staged>
        <Staged>
          <Counter name="second" />
        </Staged>
      </main>
    )
    const container = document.createElement('div')
    document.body.append(container)
    // As the server sends it: the controls disabled until the app has hydrated them (screen-pages.ts).
    container.innerHTML = renderToString(page as unknown as VNode).replaceAll(
      '<button',
      '<button disabled data-inert=""',
    )
    const before = [...container.querySelectorAll('*')]
    const [first, second] = [...container.querySelectorAll('button')]
    stageHydration()
    await act(() => hydrate(page as unknown as VNode, container))
    // The parts are still the server's markup: not hydrated yet, so a click does nothing.
    expect([first!.disabled, second!.disabled]).toEqual([true, true])
    first!.click()
    second!.click()
    await act(() => undefined)
    expect([first!.textContent, second!.textContent]).toEqual(['first 0', 'second 0'])
    await act(nextTask)
    first!.click()
    second!.click()
    await act(() => undefined)
    expect([first!.textContent, second!.textContent]).toEqual(['first 1', 'second 0'])
    expect([first!.disabled, second!.disabled]).toEqual([false, true])
    await act(nextTask)
    second!.click()
    await act(() => undefined)
    expect([first!.textContent, second!.textContent]).toEqual(['first 1', 'second 1'])
    // Not one element was made anew.
    expect([...container.querySelectorAll('*')]).toEqual(before)
    // Staging ends with the next task: a part mounted later shows at once.
    await act(nextTask)
    render(
      <Staged>
        <p>later</p>
      </Staged>,
    )
    expect(screen.getByText('later')).toBeTruthy()
    container.remove()
  })

  it('stages a hydration-only part only while hydrating', () => {
    stageFirstRender()
    render(
      <Staged hydrationOnly>
        <p>header</p>
      </Staged>,
    )
    expect(screen.getByText('header')).toBeTruthy()
  })

  it('numbers the ids on the server in the order the browser hydrates: the rest first, then part by part', async () => {
    function Named() {
      const id = useId()
      return <span id={id}>{id}</span>
    }
    const page = (
      <main>
        <Staged hydrationOnly>
          <Named />
        </Staged>
        <Named />
        <Staged>
          <Named />
          <Named />
        </Staged>
        <Named />
      </main>
    )
    stageServerRender(true)
    let html: string
    try {
      html = await renderToStringAsync(page as unknown as VNode)
    } finally {
      stageServerRender(false)
    }
    const container = document.createElement('div')
    document.body.append(container)
    container.innerHTML = html
    stageHydration()
    await act(() => hydrate(page as unknown as VNode, container))
    for (let task = 0; task < 3; task++) await act(nextTask)
    // A hydration keeps the id attributes it finds and sets the texts it makes: they agree.
    const spans = [...container.querySelectorAll('span')]
    expect(spans).toHaveLength(5)
    expect(new Set(spans.map((span) => span.id)).size).toBe(5)
    for (const span of spans) expect(span.id).toBe(span.textContent)
    container.remove()
  })
})

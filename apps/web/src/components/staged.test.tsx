import { renderToString } from 'preact-render-to-string'
import type { VNode } from 'preact'
import { describe, expect, it } from 'vitest'
import { act, render, screen } from '@/test/testing-library'
import { prerenderFrame, Staged, stageFirstRender } from './staged'

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
      expect(html).toBe('<main><h1>Heading</h1></main>')
    } finally {
      prerenderFrame(false)
    }
  })
})

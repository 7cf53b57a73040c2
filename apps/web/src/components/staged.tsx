import { type ReactNode, useLayoutEffect, useState } from 'react'

/**
 * Preact renders a tree in one task: the first screen of a load, rendered with its answers, kept a
 * phone's main thread busy for a quarter of a second (issue 27, docs/decisions/0065). During that first
 * render the parts wrapped in <Staged> render one per task instead, in the order they appear in the
 * page, so the browser can paint and answer input between them.
 *
 * Nothing shown ever moves: a part shows nothing until its turn and the parts come in document order,
 * so each appears after (below or beside) what is already there. Not nested (a part inside another
 * would come after the ones below its parent). Outside the first render (navigations, tests, the
 * public pages' hydration) a part renders at once.
 */
export function Staged({ children }: { children: ReactNode }) {
  const [turn] = useState(takeTurn)
  // Nothing while waiting for its turn, or in a frame. Attached as the page commits, so before the
  // first turn can come.
  const [shown, setShown] = useState(() => (turn ? false : !frame))
  useLayoutEffect(() => turn?.attach(() => setShown(true)), [turn])
  return shown ? children : null
}

/** A part's place in the queue. */
class Turn {
  private show: (() => void) | undefined
  private released = false
  /** Gone before its turn: the queue skips it. */
  skipped = false

  /** The part is in the page; returns its detach. Shown at once if its turn came meanwhile. */
  attach(show: () => void): () => void {
    this.show = show
    if (this.released) show()
    return () => {
      this.show = undefined
      if (!this.released) this.skipped = true
    }
  }

  release(): void {
    this.released = true
    this.show?.()
  }
}

/** The parts still waiting, first in the page first; undefined when not staging. */
let waiting: Turn[] | undefined
let pumping = false
/**
 * Rendering a signed-in screen's frame (entry-server.tsx): what shows before the first part, which is
 * what the first render over it (app/main.tsx, staging) shows too; the parts come after it.
 */
let frame = false

/** Build time only. */
export function prerenderFrame(on: boolean): void {
  frame = on
}

/** app/main.tsx, just before the first render of a screen that was not prerendered, or of a frame. */
export function stageFirstRender(): void {
  waiting = []
}

function takeTurn(): Turn | undefined {
  if (!waiting || frame) return undefined
  const turn = new Turn()
  waiting.push(turn)
  if (!pumping) {
    pumping = true
    nextTask(releaseNext)
  }
  return turn
}

/** Shows the next waiting part, then yields; staging ends when none is left. */
function releaseNext(): void {
  const turn = waiting?.shift()
  if (!turn) {
    waiting = undefined
    pumping = false
    return
  }
  // An unmounted part is skipped without a task of its own.
  if (turn.skipped) return releaseNext()
  turn.release()
  nextTask(releaseNext)
}

/**
 * A task of its own, after whatever is queued: a message, not a timer, so it is neither clamped nor
 * held by a page clock in tests (Playwright's page.clock).
 */
function nextTask(run: () => void): void {
  const channel = new MessageChannel()
  channel.port1.onmessage = () => {
    channel.port1.close()
    run()
  }
  channel.port2.postMessage(undefined)
}

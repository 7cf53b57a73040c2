import { type ReactNode, Suspense, useLayoutEffect, useRef, useState } from 'react'
import { releaseInertControls } from '@/lib/inert-controls'

/**
 * Preact renders a tree in one task: the first screen of a load, rendered with its answers, kept a
 * phone's main thread busy for a quarter of a second (issue 27, docs/decisions/0065). During that first
 * render the parts wrapped in <Staged> render one per task instead, in the order they appear in the
 * page, so the browser can paint and answer input between them.
 *
 * Nothing shown ever moves: a part shows nothing until its turn and the parts come in document order,
 * so each appears after (below or beside) what is already there. Not nested (a part inside another
 * would come after the ones below its parent). Outside the first render (navigations, tests, the
 * public pages' hydration) a part renders at once. Hydrating a screen the server rendered with its data,
 * a part shows the server's markup until its turn; a `hydrationOnly` part (above the page's content, which
 * must not move) is staged then only.
 */
export function Staged({
  children,
  hydrationOnly = false,
}: {
  children: ReactNode
  hydrationOnly?: boolean
}) {
  const [turn] = useState(() => (hydrationOnly && !hydrating && !onServer ? undefined : takeTurn()))
  // Nothing while waiting for its turn, or in a frame; hydrating, the server's markup of it stays.
  // Attached as the page commits, so before the first turn can come.
  const [shown, setShown] = useState(() => (turn ? turn.hydrating : !frame))
  useLayoutEffect(() => turn?.attach(() => setShown(true)), [turn])
  const part = <Part turn={turn}>{shown ? children : null}</Part>
  // Hydrating, the part waits for its turn in a boundary of its own (a part's is its own, one per task).
  return turn?.hydrating ? <Suspense fallback={null}>{part}</Suspense> : part
}

/**
 * The part's one element (`display: contents`, so it adds no box), the same on the server and in the
 * browser. While hydrating it waits for its turn by suspending: Preact then keeps the server's markup of
 * this element as it is and hydrates it when the turn comes, in a task of its own; its controls, which the
 * server disabled until then, work from that moment (lib/inert-controls.ts).
 */
function Part({ turn, children }: { turn: Turn | undefined; children: ReactNode }) {
  if (turn?.hydrating && !turn.released) throw turn.ready
  const element = useRef<HTMLDivElement>(null)
  useLayoutEffect(() => {
    if (turn?.hydrating && element.current) releaseInertControls(element.current)
  }, [turn])
  return (
    <div ref={element} className="contents" data-part="">
      {children}
    </div>
  )
}

/** The parts' elements: app/main.tsx enables the controls outside them when it has hydrated the rest. */
export const PARTS = '[data-part]'

/** A part's place in the queue. */
class Turn {
  private show: (() => void) | undefined
  released = false
  /** Gone before its turn: the queue skips it. */
  skipped = false
  /** Settles when the turn comes (a hydrating part waits for it). */
  readonly ready: Promise<void>
  private settle!: () => void

  /** `hydrating`: the part's markup is the server's, kept until its turn (app/main.tsx, stageHydration). */
  constructor(readonly hydrating: boolean) {
    this.ready = new Promise((resolve) => (this.settle = resolve))
  }

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
    this.settle()
  }
}

/** The parts still waiting, first in the page first; undefined when not staging. */
let waiting: Turn[] | undefined
/** Staging a hydration: the parts keep the server's markup until their turn. */
let hydrating = false
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

/**
 * Rendering a screen with its data on the server (entry-server.tsx, docs/decisions/0070): each part
 * renders after the rest, in page order, as the browser's hydration will. Preact numbers `useId`s in the
 * order it renders, so the ids the server writes are the ones the hydration makes.
 */
let onServer = false

export function stageServerRender(on: boolean): void {
  onServer = on
}

/** app/main.tsx, just before the first render of a screen that was not prerendered, or of a frame. */
export function stageFirstRender(): void {
  startStaging()
}

/**
 * app/main.tsx, just before it hydrates a screen the server rendered with its data (docs/decisions/0070):
 * the parts hydrate one per task, their markup shown as the server made it until then.
 */
export function stageHydration(): Promise<void> {
  hydrating = true
  return startStaging()
}

/** Settles when the staging has ended. */
let staged: (() => void) | undefined

/** Parts rendered from now on wait for their turns; the returned promise settles when the last has come. */
function startStaging(): Promise<void> {
  waiting = []
  if (!pumping) {
    pumping = true
    nextTask(releaseNext)
  }
  return new Promise((resolve) => (staged = resolve))
}

function takeTurn(): Turn | undefined {
  if (onServer) {
    // The server's renderer renders what suspended once the rest is done, in the order it suspended.
    const turn = new Turn(true)
    void Promise.resolve().then(() => turn.release())
    return turn
  }
  if (!waiting || frame) return undefined
  const turn = new Turn(hydrating)
  waiting.push(turn)
  return turn
}

/** Shows the next waiting part, then yields; staging ends when none is left. */
function releaseNext(): void {
  const turn = waiting?.shift()
  if (!turn) {
    waiting = undefined
    hydrating = false
    pumping = false
    staged?.()
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

/**
 * Resolves after the browser has painted its next frame: for work that should not compete with the
 * first paint (or with the paint of something just shown) for the network and the main thread. At once
 * in a hidden tab, which paints no frames.
 */
export function afterNextPaint(): Promise<void> {
  if (document.visibilityState === 'hidden') return Promise.resolve()
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
}

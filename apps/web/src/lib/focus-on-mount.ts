/**
 * A ref that focuses its element once it is in the page: what React's `autoFocus` did for a field shown
 * after a press (rename, invite, confirm). Preact writes `autofocus` as the HTML attribute, which a
 * browser honours only while the page loads (docs/decisions/0061). A field rendered while its part was
 * still loading is attached to the page a moment later: it is focused then. In a <dialog>, `autoFocus`
 * stays: showModal() honours the attribute.
 */
export function focusOnMount(element: HTMLElement | null): void {
  if (!element) return
  if (element.isConnected) element.focus()
  else requestAnimationFrame(() => element.isConnected && element.focus())
}

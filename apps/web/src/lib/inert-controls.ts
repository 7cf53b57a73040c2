/**
 * The mark of a control the server disabled until the app has hydrated it, on a screen it rendered with
 * its data (apps/server/src/lib/screen-pages.ts `inert`). A hydration keeps the attributes it finds, so
 * the app takes the mark and the `disabled` away itself as it hydrates each part (docs/decisions/0070).
 */
const INERT = 'data-inert'

/** Enables the marked controls under `root`, except those inside an element matching `except`. */
export function releaseInertControls(root: Element, except?: string): void {
  for (const control of root.querySelectorAll(`[${INERT}]`)) {
    if (except && control.closest(except)) continue
    control.removeAttribute('disabled')
    control.removeAttribute(INERT)
  }
}

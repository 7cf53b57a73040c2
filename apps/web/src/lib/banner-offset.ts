/** The CSS variable that holds the height of the banners stuck to the top of the page. */
export const BANNERS_HEIGHT_VAR = '--app-banners-height'

/**
 * Keeps BANNERS_HEIGHT_VAR on <html> equal to the element's height (0 px without banners), so a page's
 * own sticky header can sit below the staging and install banners: `top-(--app-banners-height)`.
 * Returns the cleanup.
 */
export function trackBannersHeight(element: HTMLElement): () => void {
  const root = document.documentElement
  const update = () => root.style.setProperty(BANNERS_HEIGHT_VAR, `${element.offsetHeight}px`)
  update()
  if (typeof ResizeObserver === 'undefined') return () => root.style.removeProperty(BANNERS_HEIGHT_VAR)
  const observer = new ResizeObserver(update)
  observer.observe(element)
  return () => {
    observer.disconnect()
    root.style.removeProperty(BANNERS_HEIGHT_VAR)
  }
}

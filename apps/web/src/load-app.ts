/**
 * How the pages that arrive as HTML (the prerendered public pages, the signed-in screens' frames) load
 * the app after their first paint (hydrated-page-entry.ts, screen-frame-entry.ts).
 *
 * The page lists the scripts index.html would have loaded up front (apps/web/scripts/prerender.mjs, a
 * meta tag): the app's entry first, then its chunks, each before the chunks that import it. All are
 * fetched at once; then each is evaluated in a task of its own, the entry (which starts app/main.tsx)
 * last. Evaluating the app's modules is the longest work on these pages, and one chunk per task keeps
 * any single task from holding the page for long (each library has a chunk of its own, vite.config.ts).
 */
export async function loadAppInParts(): Promise<void> {
  const [entry, ...chunks] = listed('circles-app-scripts')
  if (!entry) return
  // The page's own code and strings too, which the app would ask for once it runs (docs/decisions/0067).
  // One insertion for all of them: each link added on its own made the browser look at the page again, which
  // on a screen rendered with its data (docs/decisions/0068) took longer than the rest of the task.
  const links = document.createDocumentFragment()
  for (const href of [entry, ...chunks, ...listed('circles-page-scripts')]) links.append(preloadLink(href))
  document.head.append(links)
  for (const href of [...chunks, entry]) {
    await import(/* @vite-ignore */ href)
    await nextTask()
  }
}

function listed(name: string): string[] {
  const content = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content
  return content?.split(' ').filter(Boolean) ?? []
}

function preloadLink(href: string): HTMLLinkElement {
  const link = document.createElement('link')
  link.rel = 'modulepreload'
  link.crossOrigin = ''
  link.href = href
  return link
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0))

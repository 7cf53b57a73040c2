let rendering: string | undefined

/**
 * This page's origin (`https://circles.example`): the browser's; on the server, while it renders a screen
 * (entry-server.tsx), that of the request it renders for, which is what the browser will find.
 */
export function pageOrigin(): string {
  return rendering ?? window.location.origin
}

/** Server rendering only: the origin of the request being rendered; undefined when done. */
export function renderAtOrigin(origin: string | undefined): void {
  rendering = origin
}

/**
 * A few lucide icons (ISC licence) as markup, for banners built without React; the React side uses
 * lucide-react. Same 24 px grid and 2 px stroke, so both look alike.
 */
const PATHS = {
  download:
    '<path d="M12 15V3"/><path d="M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4"/><path d="m7 10 5 5 5-5"/>',
  x: '<path d="M18 6 6 18"/><path d="m6 6 12 12"/>',
  share: '<path d="M12 2v13"/><path d="m16 6-4-4-4 4"/><path d="M4 12v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8"/>',
  squarePlus: '<rect width="18" height="18" x="3" y="3" rx="2"/><path d="M8 12h8"/><path d="M12 8v8"/>',
  flask:
    '<path d="M14 2v6a2 2 0 0 0 .245.96l5.51 10.08A2 2 0 0 1 18 22H6a2 2 0 0 1-1.755-2.96l5.51-10.08A2 2 0 0 0 10 8V2"/><path d="M6.453 15h11.094"/><path d="M8.5 2h7"/>',
} as const

export type DomIconName = keyof typeof PATHS

/** A decorative icon (aria-hidden); the control around it carries the name. */
export function domIcon(name: DomIconName, className = 'size-4'): SVGSVGElement {
  const template = document.createElement('template')
  template.innerHTML =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" ` +
    `stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">` +
    `${PATHS[name]}</svg>`
  const svg = template.content.firstElementChild as SVGSVGElement
  svg.setAttribute('class', `shrink-0 ${className}`)
  return svg
}

/** document.createElement with classes, attributes and children in one call. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: { className?: string; text?: string; attrs?: Record<string, string> } = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  if (options.className) element.className = options.className
  if (options.text !== undefined) element.textContent = options.text
  for (const [name, value] of Object.entries(options.attrs ?? {})) element.setAttribute(name, value)
  element.append(...children)
  return element
}

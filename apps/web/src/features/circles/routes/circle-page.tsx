/** Placeholder: being built. */
export function CirclePage() {
  return <main id="main-content" className="flex-1" />
}

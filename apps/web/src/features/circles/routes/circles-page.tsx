/** Placeholder: being built. */
export function CirclesPage() {
  return <main id="main-content" className="flex-1" />
}

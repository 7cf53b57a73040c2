/** Placeholder: being built. */
export function CreateCirclePage() {
  return <main id="main-content" className="flex-1" />
}

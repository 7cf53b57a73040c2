/** Placeholder: being built. */
export function JoinPage() {
  return <main id="main-content" className="flex-1" />
}

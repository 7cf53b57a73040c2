/** Placeholder until the page is built (issue 3). */
export function ContactPage() {
  return (
    <main id="main-content" className="mx-auto max-w-2xl px-4 py-16">
      <h1 className="text-2xl font-semibold">Contact</h1>
    </main>
  )
}

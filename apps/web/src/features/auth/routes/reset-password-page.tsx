/** Placeholder until the page is built (issue 3). */
export function ResetPasswordPage() {
  return (
    <main id="main-content" className="mx-auto max-w-2xl px-4 py-16">
      <h1 className="text-2xl font-semibold">Reset password</h1>
    </main>
  )
}

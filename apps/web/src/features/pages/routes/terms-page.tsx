import { LegalPage } from '../components/legal-page'

/** /terms (spec 000 §2). */
export function TermsPage() {
  return <LegalPage document="terms" />
}

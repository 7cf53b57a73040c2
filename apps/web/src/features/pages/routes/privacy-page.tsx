import { LegalPage } from '../components/legal-page'

/** /privacy (spec 000 §2). */
export function PrivacyPage() {
  return <LegalPage document="privacy" />
}

import { Spinner } from '@/components/ui/spinner'
import { AuthLayout } from './auth-layout'

/** A page that is asking the server before it can show anything (a link being checked). */
export function CheckingState({
  documentTitle,
  title,
  hint,
}: {
  documentTitle: string
  title: string
  hint?: string
}) {
  return (
    <AuthLayout
      documentTitle={documentTitle}
      title={title}
      intro={hint}
      icon={<Spinner size="md" />}
      iconTone="accent"
    />
  )
}

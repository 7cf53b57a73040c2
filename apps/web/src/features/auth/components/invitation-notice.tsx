import { Alert } from '@/components/ui/alert'
import { ApiError } from '@/lib/api-client'
import { translateServerError } from '@/lib/server-errors'
import { useInvitationPreview } from '../api/invitation-preview'
import { useAuthTranslation } from '../lib/use-auth-translation'

/**
 * The invitation waiting for this sign-in or registration: names the circle and who invited (issue 23)
 * once the public check answers; until then, or when it cannot answer, the general words. An invitation
 * that is no longer valid (not found, expired) says so in the server's, that is the spec's, words.
 */
export function InvitationNotice({ token, page }: { token: string; page: 'login' | 'register' }) {
  const { t } = useAuthTranslation()
  const preview = useInvitationPreview(token)
  const title = t(`${page}.invitation.title`)
  const error = preview.error
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) {
    return (
      <Alert tone="warning" title={title}>
        {translateServerError(error.message)}
      </Alert>
    )
  }
  return (
    <Alert tone="info" title={title}>
      {preview.data
        ? t(`${page}.invitation.named`, {
            circle: preview.data.circleName,
            inviter: preview.data.name ?? t('login.invitation.inviterFallback'),
          })
        : t(`${page}.invitation.body`)}
    </Alert>
  )
}

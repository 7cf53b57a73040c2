import { MESSAGES, TIMINGS, type TInvitationPreview } from '@circles/shared'
import { CircleAlert, CircleCheck, Info, UsersRound } from 'lucide-react'
import { useEffect, useMemo, useState } from 'react'
import { Trans, useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button, buttonClasses } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { trackEvent } from '@/lib/analytics'
import { notify } from '@/lib/notify'
import { translateServerError } from '@/lib/server-errors'
import { invitationEmail, pendingInvitationToken, returnUrl } from '@/lib/session'
import { useSession } from '@/lib/use-session'
import { useAcceptInvitation } from '../api/accept-invitation'
import { useVerifyInvitation } from '../api/verify-invitation'
import { InvitationDetails } from '../components/invitation-details'
import { JoinLayout } from '../components/join-layout'
import { readInvitationToken, shownToken, type TokenCheck } from '../lib/invitation-token'
import { alreadyAcceptedText, invitationErrorText, isAlreadyProcessed } from '../lib/join-errors'

/** What accepting led to; before that the verify answer decides what is shown. */
type Outcome =
  | { kind: 'joined'; circleId: string; circleName: string; text: string }
  | { kind: 'accepted'; text: string }
  | { kind: 'error'; text: string }

const joinPath = (token: string) => `/join?token=${token}`

/** Spec 000 §5: the token is checked before any request; the malformed-token text is ours to translate. */
function useTokenErrorText(check: TokenCheck): string | null {
  const { t } = useTranslation('invitations')
  if (check.kind === 'valid') return null
  if (check.kind === 'none') return translateServerError(MESSAGES.invitationTokenNotFound)
  if (check.kind === 'empty') return translateServerError(MESSAGES.invitationTokenMissing)
  return t('join.malformed', { token: shownToken(check.raw) })
}

/** An invitation that can no longer be accepted, judged from the verify answer itself. */
function closedInvitationText(invitation: TInvitationPreview, now = Date.now()): string | null {
  if (invitation.status === 'EXPIRED' || new Date(invitation.expiresAt).getTime() <= now) {
    return translateServerError(MESSAGES.invitationExpired)
  }
  if (invitation.status === 'CANCELLED') return translateServerError(MESSAGES.invitationNotFound)
  return null
}

/**
 * /join?token= (spec 000 §2, §4, §5): a visitor's token is kept and the visitor sent to /login; a
 * signed-in user sees the invitation (pending, accepted or error) and accepts it, then lands on the
 * circle after 2 s.
 */
export function JoinPage() {
  const { t } = useTranslation('invitations')
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const check = useMemo(() => readInvitationToken(params), [params])
  const token = check.kind === 'valid' ? check.token : null
  const { user, isAuthenticated } = useSession()
  const verification = useVerifyInvitation(token)
  const accept = useAcceptInvitation()
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const invitation = verification.data
  const tokenError = useTokenErrorText(check)

  // A visitor signs in (or registers) first and comes back here: login follows the stored token,
  // registration the stored returnUrl. The invited address prefills both forms.
  const verifyDone = !verification.isPending
  useEffect(() => {
    if (isAuthenticated || !token || !verifyDone) return
    pendingInvitationToken.set(token)
    if (invitation?.email) invitationEmail.set(invitation.email)
    returnUrl.set(joinPath(token))
    void navigate(`/login?returnUrl=${encodeURIComponent(joinPath(token))}`, { replace: true })
  }, [isAuthenticated, token, verifyDone, invitation, navigate])

  // Signed in and here: the detour through login or registration is over, and nothing stored should
  // lead here again (the dashboard follows a stored token, so "Not now" would bounce back).
  useEffect(() => {
    if (!isAuthenticated) return
    pendingInvitationToken.clear()
    invitationEmail.clear()
    if (returnUrl.get()?.startsWith('/join')) returnUrl.clear()
  }, [isAuthenticated])

  const closed = invitation ? closedInvitationText(invitation) : null

  const joinedCircleId = outcome?.kind === 'joined' ? outcome.circleId : null
  useEffect(() => {
    if (!joinedCircleId) return
    const timer = setTimeout(
      () => void navigate(`/circles/${joinedCircleId}`, { replace: true }),
      TIMINGS.redirectAfterInvitationAcceptMs,
    )
    return () => clearTimeout(timer)
  }, [joinedCircleId, navigate])

  const documentTitle = t('documentTitle')

  const onAccept = () => {
    if (!token) return
    accept.mutate(token, {
      onSuccess: (answer) => {
        const text = translateServerError(
          answer.alreadyMember ? MESSAGES.alreadyMemberWelcome : MESSAGES.joinedCircle,
        )
        notify.success(text)
        trackEvent('circle_joined', { alreadyMember: answer.alreadyMember })
        setOutcome({ kind: 'joined', circleId: answer.circle.id, circleName: answer.circle.name, text })
      },
      onError: (error) => {
        setOutcome(
          isAlreadyProcessed(error)
            ? { kind: 'accepted', text: alreadyAcceptedText(error) }
            : { kind: 'error', text: invitationErrorText(error, MESSAGES.invitationAcceptFailed) },
        )
      },
    })
  }

  const dashboardLink = (variant: 'primary' | 'secondary' = 'primary') => (
    <Link to="/dashboard" className={buttonClasses({ variant, size: 'lg', className: 'w-full' })}>
      {t('join.toDashboard')}
    </Link>
  )

  const errorView = (text: string) => (
    <JoinLayout
      documentTitle={documentTitle}
      stateKey="error"
      title={t('join.error.title')}
      icon={<CircleAlert aria-hidden="true" />}
      iconTone="danger"
      intro={
        <p role="alert" className="break-words">
          {text}
        </p>
      }
    >
      {dashboardLink()}
    </JoinLayout>
  )

  if (tokenError !== null) return errorView(tokenError)

  if (!isAuthenticated || verification.isPending) {
    return (
      <JoinLayout
        documentTitle={documentTitle}
        stateKey="loading"
        title={t('join.loading.title')}
        intro={t('join.loading.hint')}
        icon={<Spinner size="md" />}
      />
    )
  }

  if (outcome?.kind === 'joined') {
    return (
      <JoinLayout
        documentTitle={documentTitle}
        stateKey="joined"
        title={t('join.joined.title', { circle: outcome.circleName })}
        icon={<CircleCheck aria-hidden="true" />}
        iconTone="success"
        intro={
          <div role="status" className="flex flex-col gap-2">
            <p>{outcome.text}</p>
            <p>{t('join.joined.redirect')}</p>
          </div>
        }
      >
        <Link
          to={`/circles/${outcome.circleId}`}
          replace
          className={buttonClasses({ size: 'lg', className: 'w-full' })}
        >
          {t('join.joined.open')}
        </Link>
      </JoinLayout>
    )
  }

  const alreadyAccepted =
    outcome?.kind === 'accepted'
      ? outcome.text
      : verification.isError && isAlreadyProcessed(verification.error)
        ? alreadyAcceptedText(verification.error)
        : invitation?.status === 'ACCEPTED'
          ? alreadyAcceptedText()
          : null
  if (alreadyAccepted) {
    return (
      <JoinLayout
        documentTitle={documentTitle}
        stateKey="accepted"
        title={t('join.accepted.title')}
        icon={<Info aria-hidden="true" />}
        iconTone="info"
        intro={<p role="status">{alreadyAccepted}</p>}
      >
        {dashboardLink()}
      </JoinLayout>
    )
  }

  if (outcome?.kind === 'error') return errorView(outcome.text)
  if (verification.isError)
    return errorView(invitationErrorText(verification.error, MESSAGES.invitationVerifyFailed))
  if (!invitation) return errorView(translateServerError(MESSAGES.invitationVerifyFailed))
  if (closed) return errorView(closed)

  const inviter = invitation.name?.trim() || t('join.pending.inviterFallback')
  const signedInEmail = user?.email ?? ''
  const mismatch = signedInEmail !== '' && signedInEmail.toLowerCase() !== invitation.email.toLowerCase()

  return (
    <JoinLayout
      documentTitle={documentTitle}
      stateKey="pending"
      title={t('join.pending.title', { circle: invitation.circleName })}
      icon={<UsersRound aria-hidden="true" />}
      intro={t('join.pending.intro', { inviter })}
    >
      <InvitationDetails invitation={invitation} inviter={inviter} />
      {mismatch ? (
        <Alert tone="warning" role={undefined} title={t('join.mismatch.title')}>
          <Trans
            t={t}
            i18nKey="join.mismatch.body"
            values={{ invited: invitation.email, current: signedInEmail }}
            components={{ strong: <strong className="font-semibold break-all" /> }}
          />
        </Alert>
      ) : null}
      <div className="flex flex-col gap-2">
        <Button size="lg" className="w-full" loading={accept.isPending} onClick={onAccept}>
          {t('join.pending.accept')}
        </Button>
        <Link
          to="/dashboard"
          className={buttonClasses({ variant: 'ghost', size: 'lg', className: 'w-full' })}
        >
          {t('join.pending.later')}
        </Link>
      </div>
    </JoinLayout>
  )
}

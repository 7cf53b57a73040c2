import { MESSAGES, TIMINGS, type TLoginResponse } from '@circles/shared'
import { KeyRound } from 'lucide-react'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useForm, type FieldErrors } from 'react-hook-form'
import { useLocation, useNavigate } from 'react-router'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Form } from '@/components/ui/form'
import { notify } from '@/lib/notify'
import { translateServerError } from '@/lib/server-errors'
import {
  getSession,
  invitationEmail,
  pendingInvitationToken,
  startSession,
  verificationEmail,
} from '@/lib/session'
import { useLogin } from '../api/login'
import { PasskeyError, usePasskeyLogin } from '../api/passkey-login'
import { AuthLayout } from '../components/auth-layout'
import { LoginDiscoverablePasskey } from '../components/login-discoverable-passkey'
import { LoginNotices } from '../components/login-notices'
import { LoginPasskeyStep } from '../components/login-passkey-step'
import { LoginPasswordStep } from '../components/login-password-step'
import { OrDivider } from '../components/or-divider'
import { SubmitButton } from '../components/submit-button'
import { TextLink } from '../components/text-link'
import { failureMessage, isApiError } from '../lib/api-errors'
import { prefillEmail } from '../lib/login-prefill'
import { usePasskeyAutofill } from '../lib/passkey-autofill'
import {
  authMessage,
  dismissValidationToast,
  fieldErrorText,
  toastFirstError,
  toastFormMessage,
} from '../lib/form-errors'
import {
  LOGIN_FIELD_ORDER,
  loginResolver,
  type LoginContext,
  type LoginMode,
  type LoginValues,
} from '../lib/login-form'
import { invitationTokenFromReturnUrl, joinPath, registerPath, safeReturnPath } from '../lib/redirects'
import { useAuthTranslation } from '../lib/use-auth-translation'
import { useClientSearchParams } from '../lib/use-client-search-params'
import { useStoredValue } from '../lib/use-stored-value'
import { EmailInput } from '../components/auth-inputs'

/** /login (spec 000 §2): email first, then password or passkey. */
export function LoginPage() {
  const { t } = useAuthTranslation()
  const navigate = useNavigate()
  const verifiedEmail = prefillEmail(useLocation().state)
  const params = useClientSearchParams()
  const returnUrlParam = params?.get('returnUrl') ?? null
  const resetDone = params?.get('message') === 'password-reset-success'
  const storedInvitationToken = useStoredValue(pendingInvitationToken)
  const storedInvitationEmail = useStoredValue(invitationEmail)
  const invitationToken = storedInvitationToken ?? invitationTokenFromReturnUrl(returnUrlParam)

  const [mode, setMode] = useState<LoginMode>('none')
  const [unverified, setUnverified] = useState(false)
  const passkeyButton = useRef<HTMLButtonElement>(null)

  // No defaults: RHF then adopts whatever was typed into the prerendered inputs before hydration.
  const form = useForm<LoginValues, LoginContext>({
    resolver: loginResolver,
    context: { mode },
  })
  const { register, handleSubmit, setFocus, setValue, getValues, setError, clearErrors, resetField } = form
  const { errors } = form.formState
  const login = useLogin()
  const passkey = usePasskeyLogin()
  // Issue 24: the same ceremony without an email (a discoverable passkey), from its own button.
  const discoverable = usePasskeyLogin()
  const [signedIn, setSignedIn] = useState(false)

  // A signed-in visitor has nothing to do here. Checked once, after hydration (storage is client-only).
  const checkedSession = useRef(false)
  useEffect(() => {
    if (checkedSession.current) return
    checkedSession.current = true
    if (getSession().token) void navigate('/dashboard', { replace: true })
  }, [navigate])

  // An email stored from an invitation prefills the field (spec 000 §2), as does the address just
  // verified (issue 23: the verify page hands it over in the history state).
  useEffect(() => {
    const prefill = verifiedEmail ?? storedInvitationEmail
    if (prefill && !getValues('email')) setValue('email', prefill)
  }, [verifiedEmail, storedInvitationEmail, getValues, setValue])

  // Focus follows the mode, so keyboard users continue where the new controls are.
  const previousMode = useRef(mode)
  useEffect(() => {
    if (previousMode.current === mode) return
    previousMode.current = mode
    if (mode === 'password') setFocus('password')
    else if (mode === 'passkey') passkeyButton.current?.focus()
    else setFocus('email')
  }, [mode, setFocus])

  const changeMode = (next: LoginMode) => {
    dismissValidationToast()
    setMode(next)
    setUnverified(false)
    clearErrors()
    if (next === 'none') resetField('password')
  }

  const onInvalid = (fieldErrors: FieldErrors<LoginValues>) =>
    toastFirstError(fieldErrors, LOGIN_FIELD_ORDER, t)

  function finishLogin(session: TLoginResponse) {
    setSignedIn(true)
    startSession(session.token, session.user)
    const pending = pendingInvitationToken.get()
    if (pending) {
      pendingInvitationToken.clear()
      void navigate(joinPath(pending), { replace: true })
      return
    }
    void navigate(safeReturnPath(returnUrlParam) ?? '/dashboard', { replace: true })
  }

  /** `email` is unknown after a sign-in with a passkey chosen without one (issue 24). */
  function onLoginError(error: unknown, email: string | undefined) {
    const data = isApiError(error, { status: 401 }) ? (error.data as { emailVerified?: unknown }) : null
    if (data?.emailVerified === false) {
      if (email) verificationEmail.set(email)
      setUnverified(true)
      notify.warning(failureMessage(error) ?? translateServerError(MESSAGES.emailNotVerified), {
        duration: TIMINGS.unverifiedLoginToastMs,
        action: {
          label: t('login.unverified.action'),
          onClick: () => void navigate('/resend-verification'),
        },
      })
      return
    }
    notify.error(failureMessage(error) ?? t('login.failed'))
    setFocus('password', { shouldSelect: true })
  }

  const signIn = handleSubmit((values) => {
    dismissValidationToast()
    const email = values.email.trim().toLowerCase()
    login.mutate(
      { email, password: values.password, rememberMe: values.rememberMe },
      { onSuccess: finishLogin, onError: (error) => onLoginError(error, email) },
    )
  }, onInvalid)

  /** Passkey login requires an email (spec 000 §5), with its own message when there is none. */
  function requireEmailForPasskey(): boolean {
    if ((getValues('email') ?? '').trim()) return true
    const message = authMessage('passkey.emailRequired')
    setError('email', { message }, { shouldFocus: true })
    toastFormMessage(message, t)
    return false
  }

  const choosePasskey = () => {
    if (requireEmailForPasskey()) void handleSubmit(() => changeMode('passkey'), onInvalid)()
  }

  function onPasskeyError(error: unknown, email: string | undefined) {
    // An unverified account is told so as with a password, with the way to a new link.
    const data = isApiError(error, { status: 401 }) ? (error.data as { emailVerified?: unknown }) : null
    if (data?.emailVerified === false) return onLoginError(error, email)
    notify.error(
      error instanceof PasskeyError
        ? t(`passkey.${error.reason}`)
        : (failureMessage(error) ?? t('passkey.failed')),
    )
  }

  const signInWithPasskey = () => {
    if (!requireEmailForPasskey()) return
    const email = (getValues('email') ?? '').trim().toLowerCase()
    passkey.mutate(email, { onSuccess: finishLogin, onError: (error) => onPasskeyError(error, email) })
  }

  /** Issue 24: no email; the browser offers this device's passkeys for Circles. */
  const signInWithoutEmail = () => {
    dismissValidationToast()
    clearErrors()
    discoverable.mutate(undefined, {
      onSuccess: finishLogin,
      onError: (error) => onPasskeyError(error, undefined),
    })
  }

  // Passkey autofill on the email field while no pressed passkey ceremony runs (ADR 0036).
  usePasskeyAutofill({
    enabled: !passkey.isPending && !discoverable.isPending && !signedIn,
    onSignedIn: finishLogin,
    onError: (error) => onPasskeyError(error, undefined),
  })

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (mode === 'password') return void signIn(event)
    event.preventDefault()
    if (mode === 'passkey') signInWithPasskey()
    else void handleSubmit(() => changeMode('password'), onInvalid)(event)
  }

  const intro =
    mode === 'password'
      ? t('login.introPassword')
      : mode === 'passkey'
        ? t('login.introPasskey')
        : t('login.intro')

  return (
    <AuthLayout
      documentTitle={t('login.documentTitle')}
      title={t('login.title')}
      intro={intro}
      footer={
        <>
          {t('login.noAccount')}{' '}
          <TextLink to={registerPath({ token: invitationToken, email: storedInvitationEmail })}>
            {t('login.createAccount')}
          </TextLink>
        </>
      }
    >
      <div className="flex flex-col gap-5">
        <LoginNotices resetDone={resetDone} invitation={invitationToken} unverified={unverified} />

        <Form
          form={form}
          onSubmit={onSubmit}
          className="flex flex-col gap-5"
          offlineReason={t('offline.signIn')}
        >
          <FormField label={t('fields.email')} error={fieldErrorText(errors.email?.message, t)}>
            {(field) => (
              <EmailInput
                {...field}
                // 'webauthn' lets the browser offer passkeys in this field's autofill (issue 24).
                autoComplete="username webauthn"
                readOnly={mode !== 'none'}
                {...register('email')}
              />
            )}
          </FormField>

          {mode === 'none' ? (
            <div className="flex flex-col gap-4">
              <SubmitButton className="w-full">{t('login.continueWithPassword')}</SubmitButton>
              <OrDivider label={t('login.or')} />
              <Button
                variant="secondary"
                size="lg"
                className="w-full"
                icon={<KeyRound aria-hidden="true" />}
                onClick={choosePasskey}
                needsServer
              >
                {t('login.usePasskey')}
              </Button>
              <LoginDiscoverablePasskey pending={discoverable.isPending} onClick={signInWithoutEmail} />
            </div>
          ) : null}

          {mode === 'password' ? (
            <LoginPasswordStep form={form} pending={login.isPending} onCancel={() => changeMode('none')} />
          ) : null}

          {mode === 'passkey' ? (
            <LoginPasskeyStep
              buttonRef={passkeyButton}
              pending={passkey.isPending}
              onCancel={() => changeMode('none')}
            />
          ) : null}
        </Form>
      </div>
    </AuthLayout>
  )
}

import { zodResolver } from '@hookform/resolvers/zod'
import { MESSAGES, ZCircleForm, type TCircleForm, type TCircleInput } from '@circles/shared'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { Alert } from '@/components/ui/alert'
import { Button, buttonClasses } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import { trackEvent } from '@/lib/analytics'
import { ApiError } from '@/lib/api-client'
import { notify } from '@/lib/notify'
import { translateServerError } from '@/lib/server-errors'
import { useDocumentTitle } from '@/lib/use-document-title'
import { useCreateCircle } from '../api/create-circle'
import { BackLink } from '../components/back-link'
import { CircleFormFields } from '../components/circle-form-fields'
import { PageContainer } from '../components/page-container'
import { actionErrorText } from '../lib/errors'
import { dismissValidationToast, toastFirstError } from '../lib/form-errors'

const resolver = zodResolver(ZCircleForm)

interface Failure {
  text: string
  /** The Personal plan's limit: the way on is Enterprise, so the alert links to the contact page. */
  planLimit: boolean
}

/** /circles/create (spec 001 §2): name and description; on success the new circle opens. */
export function CreateCirclePage() {
  const { t } = useTranslation('circles')
  useDocumentTitle(t('create.documentTitle'))
  const navigate = useNavigate()
  const creating = useCreateCircle()
  const [failure, setFailure] = useState<Failure | null>(null)
  const form = useForm<TCircleForm, unknown, TCircleInput>({
    resolver,
    defaultValues: { name: '', description: '' },
  })
  const { errors } = form.formState

  const onSubmit = form.handleSubmit(
    (values) => {
      dismissValidationToast()
      setFailure(null)
      creating.mutate(values, {
        onSuccess: (answer) => {
          notify.success(translateServerError(answer.message ?? MESSAGES.circleCreated))
          trackEvent('circle_created')
          void navigate(`/circles/${answer.circle.id}`)
        },
        onError: (error) => {
          setFailure({
            text: actionErrorText(error),
            planLimit: error instanceof ApiError && error.code === 'PLAN_LIMIT_REACHED',
          })
        },
      })
    },
    (fieldErrors) => toastFirstError(fieldErrors),
  )

  return (
    <PageContainer narrow className="gap-4">
      <BackLink to="/circles">{t('create.back')}</BackLink>
      <div className="rounded-xl border border-border bg-surface p-5 shadow-sm sm:p-8">
        <div className="mb-6 flex flex-col gap-2">
          <h1 className="text-xl font-semibold tracking-tight sm:text-2xl">{t('create.title')}</h1>
          <p className="text-fg-muted">{t('create.intro')}</p>
        </div>
        <Form form={form} onSubmit={onSubmit} className="flex flex-col gap-5">
          <CircleFormFields
            register={form.register}
            errors={errors}
            idPrefix="create-circle"
            disabled={creating.isPending}
          />
          {failure ? (
            <Alert
              tone="error"
              action={
                failure.planLimit ? (
                  <Link to="/contact" className="font-medium text-accent-text underline underline-offset-2">
                    {t('create.contactUs')}
                  </Link>
                ) : undefined
              }
            >
              {failure.text}
            </Alert>
          ) : null}
          <div className="mt-1 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Link to="/circles" className={buttonClasses({ variant: 'secondary' })}>
              {t('create.cancel')}
            </Link>
            <Button type="submit" loading={creating.isPending}>
              {t('create.submit')}
            </Button>
          </div>
        </Form>
      </div>
    </PageContainer>
  )
}

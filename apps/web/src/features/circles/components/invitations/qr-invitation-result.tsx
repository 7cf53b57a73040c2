import { MESSAGES, TIMINGS } from '@circles/shared'
import { Check, Copy, Download, RotateCcw } from 'lucide-react'
import { QRCodeCanvas } from 'qrcode.react'
import { useEffect, useRef, useState } from 'react'
import { Trans, useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { notify } from '@/lib/notify'
import { translateServerError } from '@/lib/server-errors'
import { qrFileName } from './invitation-text'

/** Spec 001 §9: 200 px, highest error correction. */
export const QR_SIZE = 200
export const QR_LEVEL = 'H'

interface QrInvitationResultProps {
  email: string
  link: string
  onCreateAnother(): void
}

/** The generated code with its link: copy (notice for 3 s), download as PNG, or start over. */
export function QrInvitationResult({ email, link, onCreateAnother }: QrInvitationResultProps) {
  const { t } = useTranslation('invitations')
  const canvas = useRef<HTMLCanvasElement>(null)
  const [copied, setCopied] = useState(false)
  const heading = useRef<HTMLParagraphElement>(null)

  // The form's button is gone; keyboard and screen-reader users continue at the result.
  useEffect(() => heading.current?.focus(), [])

  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), TIMINGS.copyNoticeMs)
    return () => clearTimeout(timer)
  }, [copied])

  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('Clipboard unavailable')
      await navigator.clipboard.writeText(link)
      setCopied(true)
    } catch {
      setCopied(false)
      notify.error(translateServerError(MESSAGES.linkCopyFailed))
    }
  }

  const download = () => {
    const image = canvas.current?.toDataURL('image/png')
    if (!image) return
    const anchor = document.createElement('a')
    anchor.href = image
    anchor.download = qrFileName(email)
    document.body.append(anchor)
    anchor.click()
    anchor.remove()
  }

  return (
    <div className="flex flex-col gap-5 @lg:flex-row @lg:items-start">
      <div className="self-center rounded-md border border-border bg-white p-2 @lg:self-start">
        <QRCodeCanvas
          ref={canvas}
          value={link}
          size={QR_SIZE}
          level={QR_LEVEL}
          marginSize={2}
          role="img"
          aria-label={t('admin.qr.codeFor', { email })}
          data-testid="invitation-qr"
          className="block"
        />
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-4">
        <p ref={heading} tabIndex={-1} className="text-sm text-fg outline-none">
          <Trans
            t={t}
            i18nKey="admin.qr.madeFor"
            values={{ email }}
            components={{ strong: <strong className="font-semibold break-all" /> }}
          />
        </p>
        <FormField label={t('admin.qr.linkLabel')}>
          {(field) => (
            <Input
              {...field}
              readOnly
              value={link}
              className="font-mono text-xs sm:text-xs"
              onFocus={(event) => event.currentTarget.select()}
            />
          )}
        </FormField>
        <div className="flex flex-col gap-2 @lg:flex-row @lg:flex-wrap">
          <Button variant="secondary" icon={<Copy aria-hidden="true" />} onClick={() => void copy()}>
            {t('admin.qr.copy')}
          </Button>
          <Button variant="secondary" icon={<Download aria-hidden="true" />} onClick={download}>
            {t('admin.qr.download')}
          </Button>
          <Button variant="ghost" icon={<RotateCcw aria-hidden="true" />} onClick={onCreateAnother}>
            {t('admin.qr.another')}
          </Button>
        </div>
        <p role="status" className="min-h-5 text-sm text-success">
          {copied ? (
            <span className="inline-flex items-center gap-1.5">
              <Check aria-hidden="true" className="size-4" />
              {translateServerError(MESSAGES.linkCopied)}
            </span>
          ) : null}
        </p>
      </div>
    </div>
  )
}

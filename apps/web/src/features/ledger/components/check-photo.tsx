import type { TBlock } from '@circles/shared'
import { ImageUp, SearchCheck, SearchX } from 'lucide-react'
import { useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { buttonClasses } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { cn } from '@/lib/class-names'
import { checkPhotoFile, type FileCheck } from '@/lib/ledger-verification/condition-evidence'
import { partyName } from './block-card'
import { Hash } from './hash'

type Result =
  | { state: 'idle' }
  | { state: 'checking'; file: string }
  | { state: 'failed'; file: string }
  | (FileCheck & { file: string })

/**
 * 'Check a photo' (issue 28): a member drops or picks a picture file and learns whether it is one of the
 * photos this block recorded (whose side, which photo), hashed on this device: nothing is uploaded.
 */
export function CheckPhoto({ block }: { block: TBlock }) {
  const { t } = useTranslation('ledger')
  const inputId = useId()
  const [result, setResult] = useState<Result>({ state: 'idle' })
  const [dragging, setDragging] = useState(false)
  // Only the newest file's answer is shown when a second one is dropped while the first is hashed.
  const latest = useRef(0)
  const height = block.content.height

  const check = async (file: File | undefined) => {
    if (!file) return
    const run = ++latest.current
    setResult({ state: 'checking', file: file.name })
    const answer = await checkPhotoFile(file, block).then(
      (found): Result => ({ ...found, file: file.name }),
      (): Result => ({ state: 'failed', file: file.name }),
    )
    if (run === latest.current) setResult(answer)
  }

  return (
    <section
      aria-labelledby={`${inputId}-title`}
      className="flex flex-col gap-3 border-t border-border pt-5"
      data-testid="check-photo"
    >
      <div className="flex flex-col gap-1">
        <h3 id={`${inputId}-title`} className="text-sm font-semibold">
          {t('check.title')}
        </h3>
        <p className="text-sm text-fg-muted">{t('check.intro')}</p>
      </div>
      <div
        onDragEnter={(event) => {
          event.preventDefault()
          setDragging(true)
        }}
        onDragOver={(event) => {
          event.preventDefault()
          event.dataTransfer.dropEffect = 'copy'
        }}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false)
        }}
        onDrop={(event) => {
          event.preventDefault()
          setDragging(false)
          void check(event.dataTransfer.files[0])
        }}
        data-testid="check-photo-drop"
        className={cn(
          'flex flex-col items-center gap-3 rounded-md border border-dashed px-4 py-6 text-center text-sm text-fg-muted transition-colors duration-150 motion-reduce:transition-none',
          dragging ? 'border-accent bg-accent-soft' : 'border-border-strong',
        )}
      >
        <ImageUp aria-hidden="true" className="size-6" />
        <p>{t('check.drop')}</p>
        <input
          id={inputId}
          type="file"
          accept="image/*"
          className="peer sr-only"
          aria-describedby={`${inputId}-hint`}
          onChange={(event) => {
            void check(event.target.files?.[0])
            // The same file again must answer again.
            event.target.value = ''
          }}
        />
        <label
          htmlFor={inputId}
          className={buttonClasses({
            variant: 'secondary',
            size: 'sm',
            className: 'cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2',
          })}
        >
          {t('check.choose')}
        </label>
        <p id={`${inputId}-hint`} className="max-w-prose text-xs">
          {t('check.hint')}
        </p>
      </div>
      <div role="status" aria-live="polite" data-testid="check-photo-result">
        <ResultLine block={block} result={result} height={height} />
      </div>
    </section>
  )
}

function ResultLine({ block, result, height }: { block: TBlock; result: Result; height: number }) {
  const { t } = useTranslation('ledger')
  const file = 'file' in result ? result.file : ''
  switch (result.state) {
    case 'idle':
      return null
    case 'checking':
      return (
        <p className="inline-flex items-center gap-2 text-sm text-fg-muted">
          <Spinner size="sm" />
          {t('check.checking', { file })}
        </p>
      )
    case 'match':
      return (
        <div className="flex gap-3 rounded-md border border-success/25 bg-success-soft px-4 py-3 text-sm">
          <SearchCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
          <div className="flex min-w-0 flex-col gap-1">
            <p className="font-semibold">{t('check.matchTitle')}</p>
            {result.photos.map((photo) => (
              <p key={`${photo.side}-${photo.position}`} className="break-words">
                {t('check.match', {
                  file,
                  name: partyName(block, photo.side),
                  number: photo.position + 1,
                  height,
                })}
              </p>
            ))}
            <span className="inline-flex flex-wrap items-center gap-1 text-fg-muted">
              {t('condition.fingerprint')} <Hash hash={result.sha256} label={t('condition.fingerprint')} />
            </span>
          </div>
        </div>
      )
    default: {
      const message =
        result.state === 'noMatch'
          ? t('check.noMatch', { file, height })
          : result.state === 'notPicture'
            ? t('check.notPicture', { file })
            : result.state === 'tooLarge'
              ? t('check.tooLarge', { file })
              : t('check.failed', { file })
      return (
        <div className="flex gap-3 rounded-md border border-warning/30 bg-warning-soft px-4 py-3 text-sm">
          <SearchX aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-warning" />
          <div className="flex min-w-0 flex-col gap-1">
            <p className="font-semibold">
              {result.state === 'failed' ? t('check.failedTitle') : t('check.noMatchTitle')}
            </p>
            <p className="break-words">{message}</p>
          </div>
        </div>
      )
    }
  }
}

import { LIMITS, MESSAGES, type TUser } from '@circles/shared'
import { Trash2 } from 'lucide-react'
import { type ChangeEvent, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FileButton } from '@/components/ui/file-button'
import { UserAvatar } from '@/components/user-avatar'
import { notify } from '@/lib/notify'
import { PICTURE_TYPES, pictureProblem } from '@/lib/picture-check'
import { failureText, translateServerError } from '@/lib/server-errors'
import { useRemoveAvatar } from '../api/remove-avatar'
import { AvatarUploadError, useUploadAvatar } from '../api/upload-avatar'

/**
 * The avatar in 'Profile Information' (issue 24, docs/decisions/0037): the picture or the initials,
 * Change (a JPEG, PNG or WebP up to 5 MB, checked at the pick as an item's picture), Remove; while it
 * uploads, the picked picture as a preview with the upload's progress.
 */
export function AvatarPicture({ user }: { user: TUser }) {
  const { t } = useTranslation('profile')
  const inputId = useId()
  const upload = useUploadAvatar()
  const remove = useRemoveAvatar()
  const [percent, setPercent] = useState(0)
  const [preview, setPreview] = useState<string | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const input = useRef<HTMLInputElement>(null)
  const busy = upload.isPending || remove.isPending

  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview])

  const failed = (error: unknown) => {
    if (error instanceof AvatarUploadError && error.reason !== 'server' && error.reason !== 'failed') {
      return t(`avatar.errors.${error.reason}`)
    }
    return failureText(error, t('avatar.errors.failed'))
  }

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    // The same file picked again after a refusal must fire a change again.
    event.target.value = ''
    if (!file || busy) return
    const found =
      file.size > LIMITS.maxImageBytes
        ? translateServerError(MESSAGES.imageTooLarge)
        : await pictureProblem(file, t('avatar.notAnImage'))
    setProblem(found)
    if (found) return
    setPercent(0)
    upload.mutate(
      { file, onProgress: setPercent },
      {
        onSuccess: ({ message }) => notify.success(translateServerError(message)),
        onError: (error) => setProblem(failed(error)),
        onSettled: () => setPreview(null),
      },
    )
    setPreview(URL.createObjectURL(file))
  }

  const removePicture = () => {
    setProblem(null)
    remove.mutate(undefined, {
      onSuccess: ({ message }) => notify.success(translateServerError(message)),
      onError: (error) => setProblem(failureText(error, t('avatar.errors.removeFailed'))),
    })
  }

  return (
    <div className="flex flex-col gap-3 py-3">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:gap-6">
        <span className="w-40 shrink-0 text-sm text-fg-muted">{t('avatar.title')}</span>
        <div className="flex flex-wrap items-center gap-4">
          {preview ? (
            <img
              src={preview}
              alt={t('avatar.preview')}
              className="size-20 shrink-0 rounded-full object-cover opacity-70"
            />
          ) : (
            <span role="img" aria-label={user.avatarUrl ? t('avatar.current') : t('avatar.none')}>
              <UserAvatar
                name={user.name}
                avatarUrl={user.avatarUrl}
                className="size-20 bg-accent-soft text-2xl text-accent-text"
              />
            </span>
          )}
          <div className="flex flex-wrap items-center gap-2">
            <FileButton
              ref={input}
              id={inputId}
              accept={PICTURE_TYPES}
              disabled={busy}
              aria-label={user.avatarUrl ? t('avatar.change') : t('avatar.add')}
              onChange={(event) => void pick(event)}
            >
              {user.avatarUrl ? t('avatar.change') : t('avatar.add')}
            </FileButton>
            {user.avatarUrl ? (
              <Button
                variant="ghost"
                size="sm"
                icon={<Trash2 aria-hidden="true" />}
                disabled={upload.isPending}
                loading={remove.isPending}
                onClick={removePicture}
              >
                {t('avatar.remove')}
              </Button>
            ) : null}
          </div>
        </div>
      </div>
      <p className="text-xs text-fg-subtle sm:ps-46">{t('avatar.hint')}</p>
      {upload.isPending ? (
        <div className="flex items-center gap-3 sm:ps-46">
          <progress
            className="h-2 flex-1 overflow-hidden rounded-full accent-accent"
            max={100}
            value={percent}
            aria-label={t('avatar.progress', { percent })}
          />
          <span className="w-10 text-end text-sm text-fg-muted tabular-nums">{percent}%</span>
        </div>
      ) : null}
      {problem ? (
        <Alert tone="error" title={t('avatar.errors.title')}>
          {problem}
        </Alert>
      ) : null}
    </div>
  )
}

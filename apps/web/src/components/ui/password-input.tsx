import { Eye, EyeOff } from 'lucide-react'
import { useState } from 'react'
import { Input, type InputProps } from '@/components/ui/input'
import { cn } from '@/lib/class-names'

export interface PasswordInputProps extends Omit<InputProps, 'type'> {
  /** The toggle's accessible name while the password is hidden, e.g. t('Show password'). */
  showLabel: string
  /** Its name while the password is visible. */
  hideLabel: string
}

/**
 * A password field with a show/hide toggle. The toggle is a real button (keyboard and screen readers);
 * its name says what pressing it will do, so it needs no aria-pressed.
 */
export function PasswordInput({ showLabel, hideLabel, className, id, ...props }: PasswordInputProps) {
  const [visible, setVisible] = useState(false)
  const label = visible ? hideLabel : showLabel

  return (
    <div className={cn('relative', className)}>
      <Input
        id={id}
        type={visible ? 'text' : 'password'}
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        className="pr-11"
        {...props}
      />
      <button
        type="button"
        aria-label={label}
        title={label}
        aria-controls={id}
        onClick={() => setVisible((v) => !v)}
        className={cn(
          'absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-md text-fg-muted',
          'transition-colors duration-150 hover:text-fg disabled:pointer-events-none disabled:opacity-50',
        )}
        disabled={props.disabled}
      >
        {visible ? (
          <EyeOff aria-hidden="true" className="size-4" />
        ) : (
          <Eye aria-hidden="true" className="size-4" />
        )}
      </button>
    </div>
  )
}

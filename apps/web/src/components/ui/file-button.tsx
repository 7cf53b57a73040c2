import { ImageUp } from 'lucide-react'
import type { ComponentProps, ReactNode } from 'react'
import { buttonClasses } from './button'

export interface FileButtonProps extends Omit<ComponentProps<'input'>, 'type' | 'className' | 'children'> {
  /** The input's id: the visible button is its <label>. */
  id: string
  /** What the button says. */
  children: ReactNode
}

/**
 * A file picker whose button speaks our language (the browser's own speaks the browser's): the input
 * stays the control for keyboards and screen readers (visually hidden, named by its aria-label or form
 * label), and a <label> drawn as a secondary button opens it; its focus ring follows the input's.
 */
export function FileButton({ id, children, ...input }: FileButtonProps) {
  return (
    <>
      <input {...input} id={id} type="file" className="peer sr-only" />
      <label
        htmlFor={id}
        aria-hidden="true"
        className={buttonClasses({
          variant: 'secondary',
          size: 'sm',
          className:
            'cursor-pointer peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-disabled:pointer-events-none peer-disabled:opacity-50',
        })}
      >
        <ImageUp aria-hidden="true" />
        {children}
      </label>
    </>
  )
}

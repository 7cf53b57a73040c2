import { Link, type LinkProps } from 'react-router'
import { cn } from '@/lib/class-names'

/**
 * A link inside text. Underlined, not just coloured, so it stands out from the words around it for
 * people who do not see the accent colour (WCAG 1.4.1).
 */
export function TextLink({ className, ...props }: LinkProps) {
  return (
    <Link
      className={cn(
        'rounded-sm font-medium text-accent-text underline decoration-accent-text/40 underline-offset-4',
        'transition-colors duration-150 hover:decoration-accent-text',
        className,
      )}
      {...props}
    />
  )
}

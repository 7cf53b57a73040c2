import { Button, type ButtonProps } from '@/components/ui/button'
import { useHydrated } from '@/lib/use-hydrated'

/**
 * The form's submit button. On a prerendered page it stays disabled until React has hydrated: a click
 * (or Enter) before that would submit the form natively and reload the page, losing what was typed.
 * It keeps its normal look meanwhile; that moment is usually too short to notice.
 */
export function SubmitButton({ disabled, style, ...props }: Omit<ButtonProps, 'type'>) {
  const hydrated = useHydrated()
  return (
    <Button
      type="submit"
      size="lg"
      disabled={disabled || !hydrated}
      style={hydrated ? style : { ...style, opacity: 1 }}
      {...props}
    />
  )
}

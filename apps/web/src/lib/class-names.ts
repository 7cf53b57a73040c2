/**
 * Joins class names, skipping falsy ones. There is no tailwind-merge here: a caller's className is for
 * layout (margin, width, grid placement), never for overriding a component's own colours or sizes.
 */
export function cn(...parts: Array<string | false | null | undefined>): string {
  return parts.filter(Boolean).join(' ')
}

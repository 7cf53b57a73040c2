/**
 * Which chrome a page gets (spec 000 §2), decided here and nowhere else. These public pages bring their
 * own header and footer, so the app header and footer stay away; every other path, protected or not
 * (verification, invitations, the not-found page), gets them.
 */
export const PAGES_WITH_OWN_CHROME = [
  '/',
  '/about',
  '/privacy',
  '/terms',
  '/contact',
  '/login',
  '/register',
  '/forgot-password',
  '/reset-password',
] as const

export interface ShellChrome {
  header: boolean
  footer: boolean
}

/** `/about/` is `/about`; `/` stays `/`. */
function normalise(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '')
  return trimmed === '' ? '/' : trimmed.toLowerCase()
}

export function hasOwnChrome(pathname: string): boolean {
  return (PAGES_WITH_OWN_CHROME as readonly string[]).includes(normalise(pathname))
}

/** The header shows on every other page; the footer too, unless the user hid it. */
export function shellChrome(pathname: string, footerVisible: boolean): ShellChrome {
  const own = hasOwnChrome(pathname)
  return { header: !own, footer: !own && footerVisible }
}

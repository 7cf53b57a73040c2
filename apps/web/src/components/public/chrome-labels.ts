import { useTranslation } from 'react-i18next'
import type landing from '@/locales/en/landing.json'

/**
 * The texts of the public header and footer. Each public namespace (landing, pages, contact) carries
 * the same `chrome` block, so a public page loads one namespace and never waits for another; a unit
 * test keeps the copies identical.
 */
export type ChromeLabels = (typeof landing)['chrome']

export type PublicNamespace = 'landing' | 'pages' | 'contact'

/** The header and footer texts from the page's own namespace, with the copyright year filled in. */
export function useChromeLabels(namespace: PublicNamespace): ChromeLabels {
  const { t } = useTranslation(namespace)
  return t('chrome', { returnObjects: true, year: new Date().getFullYear() }) as ChromeLabels
}

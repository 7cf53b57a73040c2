import { useTranslation } from 'react-i18next'
import type en from '@/locales/en/auth.json'

/** "a.b.c" for every string leaf of the English auth namespace. */
type Leaves<T, Prefix extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${Prefix}${K}` : Leaves<T[K], `${Prefix}${K}.`>
}[keyof T & string]

export type AuthKey = Leaves<typeof en>
export type AuthT = (key: AuthKey, options?: Record<string, unknown>) => string

/**
 * `t` for the auth namespace with a plain signature, so helpers can take it as a parameter; keys are
 * checked against locales/en/auth.json. (The route loads the namespace first.)
 */
export function useAuthTranslation(): { t: AuthT; language: string } {
  const { t, i18n } = useTranslation('auth')
  // react-i18next's overloaded TFunction is not assignable to a one-signature function type.
  return { t: t as unknown as AuthT, language: i18n.resolvedLanguage ?? i18n.language }
}

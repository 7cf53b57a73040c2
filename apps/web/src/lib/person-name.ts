import i18n from 'i18next'

/**
 * A person's name as shown. A deleted account's name is the empty string in every API answer, and a
 * ledger block whose name was erased carries null (issue 24): both read 'Deleted member'. A real name is
 * never empty (registration and the profile refuse it).
 */
export function personName(name: string | null | undefined): string {
  return name ? name : i18n.t('common:deletedMember')
}

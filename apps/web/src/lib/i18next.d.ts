import type auth from '@/locales/en/auth.json'
import type circles from '@/locales/en/circles.json'
import type common from '@/locales/en/common.json'
import type contact from '@/locales/en/contact.json'
import type dashboard from '@/locales/en/dashboard.json'
import type errors from '@/locales/en/errors.json'
import type invitations from '@/locales/en/invitations.json'
import type items from '@/locales/en/items.json'
import type ledger from '@/locales/en/ledger.json'
import type loans from '@/locales/en/loans.json'
import type landing from '@/locales/en/landing.json'
import type pages from '@/locales/en/pages.json'
import type profile from '@/locales/en/profile.json'
import type scan from '@/locales/en/scan.json'

// English is the reference: a key missing there is a type error in every t() call.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common'
    resources: {
      auth: typeof auth
      circles: typeof circles
      common: typeof common
      contact: typeof contact
      dashboard: typeof dashboard
      errors: typeof errors
      invitations: typeof invitations
      items: typeof items
      ledger: typeof ledger
      loans: typeof loans
      landing: typeof landing
      pages: typeof pages
      profile: typeof profile
      scan: typeof scan
    }
  }
}

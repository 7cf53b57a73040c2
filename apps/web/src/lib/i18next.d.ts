import type common from '@/locales/en/common.json'
import type dashboard from '@/locales/en/dashboard.json'
import type errors from '@/locales/en/errors.json'
import type landing from '@/locales/en/landing.json'

// English is the reference: a key missing there is a type error in every t() call.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common'
    resources: {
      common: typeof common
      dashboard: typeof dashboard
      errors: typeof errors
      landing: typeof landing
    }
  }
}

import { describe, expect, it } from 'vitest'
import contactDe from '@/locales/de/contact.json'
import landingDe from '@/locales/de/landing.json'
import pagesDe from '@/locales/de/pages.json'
import contactEn from '@/locales/en/contact.json'
import landingEn from '@/locales/en/landing.json'
import pagesEn from '@/locales/en/pages.json'

// Each public namespace carries its own copy of the header and footer texts (see chrome-labels.ts).
describe('the public chrome texts', () => {
  it.each([
    ['en', landingEn.chrome, pagesEn.chrome, contactEn.chrome],
    ['de', landingDe.chrome, pagesDe.chrome, contactDe.chrome],
  ])(
    'are the same in the landing, pages and contact namespaces (%s)',
    (_language, landing, pages, contact) => {
      expect(pages).toEqual(landing)
      expect(contact).toEqual(landing)
    },
  )
})

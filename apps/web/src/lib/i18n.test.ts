import { MESSAGES } from '@circles/shared'
import { describe, expect, it, vi } from 'vitest'
import {
  applyDocumentLanguage,
  initI18n,
  isRtl,
  pickLanguage,
  setLanguage,
  writeLanguageCookie,
} from '@/lib/i18n'

type Tree = { [key: string]: string | Tree }
const localeFiles = import.meta.glob<Tree>('../locales/*/*.json', { eager: true, import: 'default' })

function flatKeys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : flatKeys(value, `${prefix}${key}.`),
  )
}

function locale(language: string, namespace: string): Tree {
  const tree = localeFiles[`../locales/${language}/${namespace}.json`]
  if (!tree) throw new Error(`missing ${language}/${namespace}.json`)
  return tree
}

describe('pickLanguage', () => {
  it('prefers the stored choice', () => {
    expect(pickLanguage('de', ['en-US'])).toBe('de')
    expect(pickLanguage('en', ['de-DE'])).toBe('en')
  })

  it('then takes the first supported browser language, ignoring the region', () => {
    expect(pickLanguage(null, ['fr-FR', 'de-AT', 'en'])).toBe('de')
    expect(pickLanguage(undefined, ['EN-gb'])).toBe('en')
  })

  it('ignores an unsupported stored value', () => {
    expect(pickLanguage('fr', ['de'])).toBe('de')
  })

  it('falls back to English', () => {
    expect(pickLanguage(null, [])).toBe('en')
    expect(pickLanguage('', ['fr', 'ar'])).toBe('en')
  })
})

describe('isRtl', () => {
  it.each(['ar', 'he', 'fa', 'ur', 'ar-EG', 'HE-il'])('flags %s as right to left', (language) => {
    expect(isRtl(language)).toBe(true)
  })

  it.each(['en', 'de', 'de-DE', 'fr', 'arn', ''])('does not flag %s', (language) => {
    expect(isRtl(language)).toBe(false)
  })
})

describe('translations', () => {
  const namespaces = [...new Set(Object.keys(localeFiles).map((path) => path.split('/').pop()))]

  it('are present in both languages with the same keys', () => {
    expect(namespaces.length).toBeGreaterThanOrEqual(2)
    for (const file of namespaces) {
      const namespace = file!.replace('.json', '')
      expect(flatKeys(locale('de', namespace)).sort(), namespace).toEqual(
        flatKeys(locale('en', namespace)).sort(),
      )
    }
  })

  it('give every server message in English word for word and in German', () => {
    expect(locale('en', 'errors')).toEqual(MESSAGES)
    const german = locale('de', 'errors')
    expect(Object.keys(german).sort()).toEqual(Object.keys(MESSAGES).sort())
    for (const [key, english] of Object.entries(MESSAGES)) {
      expect(german[key], key).toBeTypeOf('string')
      expect(german[key], key).not.toBe(english)
    }
  })
})

describe('initI18n', () => {
  it('loads the language lazily and sets <html lang> and dir', async () => {
    const i18n = await initI18n('de')
    expect(i18n.t('notFound.message')).toBe('Die Seite, die du suchst, gibt es nicht.')
    expect(document.documentElement.lang).toBe('de')
    expect(document.documentElement.dir).toBe('ltr')

    await setLanguage('en')
    expect(localStorage.getItem('language')).toBe('en')
    expect(document.documentElement.lang).toBe('en')
    expect(i18n.t('notFound.message')).toBe("The page you're looking for doesn't exist.")
  })
})

describe('namespaces asked for before init (the first page, app/router.ts)', () => {
  it('load with the initial ones, so the page renders without waiting for them', async () => {
    vi.resetModules()
    const fresh = await import('@/lib/i18n')
    await fresh.loadNamespaces('dashboard', 'loans')
    const i18n = await fresh.initI18n('en')
    expect(i18n.hasLoadedNamespace('dashboard')).toBe(true)
    expect(i18n.hasLoadedNamespace('loans')).toBe(true)
    expect(i18n.hasLoadedNamespace('ledger')).toBe(false)
  })
})

describe('document language and the lang cookie', () => {
  function langCookie(): string | undefined {
    return document.cookie
      .split(';')
      .map((part) => part.trim())
      .find((part) => part.startsWith('lang='))
      ?.slice('lang='.length)
  }

  it('sets dir from the UI language: an Arabic browser gets English, left to right', () => {
    const uiLanguage = pickLanguage(null, ['ar-EG', 'fr'])
    expect(uiLanguage).toBe('en')
    applyDocumentLanguage(uiLanguage)
    expect(document.documentElement.lang).toBe('en')
    expect(document.documentElement.dir).toBe('ltr')
    applyDocumentLanguage('ar')
    expect(document.documentElement.dir).toBe('rtl')
    applyDocumentLanguage('de')
    expect(document.documentElement.dir).toBe('ltr')
  })

  it('mirrors the stored choice into the lang cookie the server reads', async () => {
    await initI18n('en')
    await setLanguage('de')
    expect(langCookie()).toBe('de')
    expect(localStorage.getItem('language')).toBe('de')
    await setLanguage('en')
    expect(langCookie()).toBe('en')
  })

  it('removes the cookie when there is no stored choice', () => {
    writeLanguageCookie('de')
    expect(langCookie()).toBe('de')
    writeLanguageCookie(null)
    expect(langCookie()).toBeUndefined()
  })
})

import { describe, expect, it } from 'vitest'
import de from '@/locales/de/auth.json'
import en from '@/locales/en/auth.json'

type Tree = { [key: string]: string | Tree }

function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string') out.set(path, value)
    else for (const [child, text] of leaves(value, path)) out.set(child, text)
  }
  return out
}

describe('auth translations', () => {
  const english = leaves(en)
  const german = leaves(de)

  it('have the same keys in English and German', () => {
    expect([...german.keys()].sort()).toEqual([...english.keys()].sort())
  })

  it('keep the same placeholders in both languages', () => {
    const placeholders = (text: string) => (text.match(/\{\{\w+\}\}/g) ?? []).sort()
    for (const [key, text] of english)
      expect(placeholders(german.get(key) ?? ''), key).toEqual(placeholders(text))
  })

  it('address the reader informally in German (du, never Sie)', () => {
    for (const [key, text] of german) expect(text, key).not.toMatch(/\b(Sie|Ihre?[nmrs]?)\b/)
  })
})

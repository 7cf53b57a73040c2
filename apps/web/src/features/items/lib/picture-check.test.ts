import type { TFunction } from 'i18next'
import { beforeAll, describe, expect, it } from 'vitest'
import { initI18n } from '@/lib/i18n'
import { pictureProblem } from './picture-check'

const t = ((key: string) => key) as unknown as TFunction<'items'>
beforeAll(async () => {
  const i18n = await initI18n('en')
  await i18n.changeLanguage('en')
})

const file = (type: string, bytes = 3) => new File([new Uint8Array(bytes)], 'picked', { type })

describe('pictureProblem: a picked file is refused before anything is saved', () => {
  it('takes a JPEG, PNG or WebP image with content', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/webp'])
      expect(pictureProblem(file(type), t)).toBeNull()
  })

  it('names what is wrong with anything else', () => {
    expect(pictureProblem(file('application/pdf'), t)).toBe('upload.notAnImage')
    expect(pictureProblem(file('image/heic'), t)).toBe(
      'Invalid file type. Please upload a JPEG, PNG, or WebP image.',
    )
    expect(pictureProblem(file('image/png', 0), t)).toBe('Invalid file: zero size')
  })
})

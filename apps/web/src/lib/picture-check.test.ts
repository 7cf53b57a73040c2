import { beforeAll, describe, expect, it } from 'vitest'
import { initI18n } from '@/lib/i18n'
import { hasPictureSignature, pictureProblem } from './picture-check'

const t = 'upload.notAnImage'
beforeAll(async () => {
  const i18n = await initI18n('en')
  await i18n.changeLanguage('en')
})

const JPEG = [0xff, 0xd8, 0xff, 0xe0, 0, 0x10]
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]
const WEBP = [...'RIFF']
  .map((c) => c.charCodeAt(0))
  .concat(
    [0x24, 0, 0, 0],
    [...'WEBP'].map((c) => c.charCodeAt(0)),
  )
const file = (type: string, bytes: number[] | Uint8Array = JPEG, name = 'picked') =>
  new File([new Uint8Array(bytes)], name, { type })
const INVALID_TYPE = 'Invalid file type. Please upload a JPEG, PNG, or WebP image.'

describe('pictureProblem: a picked file is refused before anything is saved', () => {
  it('takes a JPEG, PNG or WebP image with content', async () => {
    expect(await pictureProblem(file('image/jpeg', JPEG), t)).toBeNull()
    expect(await pictureProblem(file('image/png', PNG), t)).toBeNull()
    expect(await pictureProblem(file('image/webp', WEBP), t)).toBeNull()
    // The server goes by content too: a PNG named .jpg is a picture.
    expect(await pictureProblem(file('image/jpeg', PNG, 'photo.jpg'), t)).toBeNull()
  })

  it('names what is wrong with anything else', async () => {
    expect(await pictureProblem(file('application/pdf'), t)).toBe('upload.notAnImage')
    expect(await pictureProblem(file('image/heic'), t)).toBe(INVALID_TYPE)
    expect(await pictureProblem(file('image/png', []), t)).toBe('Invalid file: zero size')
  })

  it('refuses a text file renamed .jpg: the type comes from the name, the bytes say otherwise', async () => {
    const text = new TextEncoder().encode('just some notes, not a photo\n')
    expect(await pictureProblem(file('image/jpeg', text, 'notes.jpg'), t)).toBe(INVALID_TYPE)
    expect(
      await pictureProblem(
        file(
          'image/webp',
          [...'RIFF....AVI '].map((c) => c.charCodeAt(0)),
        ),
        t,
      ),
    ).toBe(INVALID_TYPE)
    expect(await pictureProblem(file('image/png', [0x89, 0x50]), t)).toBe(INVALID_TYPE)
  })

  it('reads the three signatures', async () => {
    expect(await hasPictureSignature(new Blob([new Uint8Array(JPEG)]))).toBe(true)
    expect(await hasPictureSignature(new Blob([new Uint8Array(PNG)]))).toBe(true)
    expect(await hasPictureSignature(new Blob([new Uint8Array(WEBP)]))).toBe(true)
    expect(await hasPictureSignature(new Blob(['GIF89a']))).toBe(false)
  })
})

import { describe, expect, it } from 'vitest'
import { classifyScan } from './classify-scan'

const ORIGIN = 'https://circles.example'

describe('classifyScan (issue 27)', () => {
  it('reads a label of this app as its item code, through /i/:code', () => {
    expect(classifyScan(`${ORIGIN}/i/7K3M9QXR`, ORIGIN)).toEqual({ kind: 'item', path: '/i/7K3M9QXR' })
    // Forgiving as typing a code: lower case and a hyphen, and a stray newline from the reader.
    expect(classifyScan(` ${ORIGIN}/i/7k3m-9qxr\n`, ORIGIN)).toEqual({ kind: 'item', path: '/i/7K3M9QXR' })
  })

  it('reads an invitation as the join page with only its token', () => {
    const token = 'a'.repeat(64)
    expect(classifyScan(`${ORIGIN}/join?token=${token}`, ORIGIN)).toEqual({
      kind: 'invitation',
      path: `/join?token=${token}`,
    })
    expect(classifyScan(`${ORIGIN}/join?invite=abc&utm=x`, ORIGIN)).toEqual({
      kind: 'invitation',
      path: '/join?invite=abc',
    })
  })

  it.each([
    ['another site', 'https://example.org/i/7K3M9QXR'],
    ['a look-alike host', 'https://circles.example.evil.test/i/7K3M9QXR'],
    ['another scheme', 'http://circles.example/i/7K3M9QXR'],
    ['credentials in the link', 'https://user:pw@circles.example/i/7K3M9QXR'],
    ['no code after /i/', `${ORIGIN}/i/`],
    ['no item code', `${ORIGIN}/i/NOTACODE0`],
    ['letters a code never has', `${ORIGIN}/i/ILOU2345`],
    ['a join link without a token', `${ORIGIN}/join`],
    ['another page of ours', `${ORIGIN}/dashboard`],
    ['plain text', 'hello'],
    ['a bare code without the link', '7K3M9QXR'],
    ['a javascript: link', 'javascript:alert(1)'],
    ['Wi-Fi credentials', 'WIFI:T:WPA;S:home;P:secret;;'],
  ])('treats %s as foreign', (_, text) => {
    expect(classifyScan(text, ORIGIN)).toEqual({ kind: 'foreign' })
  })
})

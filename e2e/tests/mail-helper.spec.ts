// The mail helpers decode what real mailers send: quoted-printable with soft line breaks and =3D,
// base64, HTML entities, encoded-word subjects. No browser and no server needed.
import { expect, test } from '@playwright/test'
import { emailText, extractLink, extractLinks } from '../support/mail'
import { subjectOf } from '../support/mime'

const token = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2'
const link = `http://localhost:4321/verify?token=${token}`
const qp = (text: string) =>
  text
    .replace(/=/g, '=3D')
    .match(/.{1,60}/g)
    ?.join('=\r\n') ?? ''

const raw = [
  'From: Circles <no-reply@circles.test>',
  'To: someone@example.com',
  'Subject: =?UTF-8?Q?Verify_your_email_=E2=80=93_Circles?=',
  'MIME-Version: 1.0',
  'Content-Type: multipart/alternative;',
  ' boundary="--_b1"',
  '',
  '----_b1',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: quoted-printable',
  '',
  qp(`Hello! Open ${link} to verify. It expires in 1 hour.`),
  '----_b1',
  'Content-Type: text/html; charset=utf-8',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.from(`<p><a href="http://localhost:4321/reset-password?token=x&amp;lang=de">Reset</a></p>`).toString(
    'base64',
  ),
  '----_b1--',
  '',
].join('\r\n')

test('decodes the subject, quoted-printable text and base64 HTML', () => {
  expect(subjectOf(raw)).toBe('Verify your email – Circles')
  expect(emailText({ raw })).toContain(`Open ${link} to verify.`)
  expect(extractLinks({ raw })).toEqual([link, 'http://localhost:4321/reset-password?token=x&lang=de'])
})

test('extractLink finds a link by path prefix and says what it found otherwise', () => {
  expect(extractLink({ raw }, '/verify?token=')).toBe(link)
  expect(extractLink({ raw }, '/reset-password')).toBe('http://localhost:4321/reset-password?token=x&lang=de')
  expect(() => extractLink({ raw }, '/join?token=')).toThrow(/Links found: .*verify\?token=/)
})

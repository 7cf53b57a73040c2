import { describe, expect, it } from 'vitest'
import { MESSAGES } from '../messages'
import { ZRegisterForm, ZRegisterRequest, ZResetPasswordRequest } from './users'

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message

describe('ZRegisterRequest', () => {
  it('asks for every field before judging any one of them', () => {
    expect(firstMessage(ZRegisterRequest.safeParse({ name: 'A', email: 'bad' }))).toBe(MESSAGES.required)
    expect(firstMessage(ZRegisterRequest.safeParse({ name: 'A', email: 'bad', password: 'x' }))).toBe(
      MESSAGES.nameMin,
    )
  })

  it('normalises the email to lower case and trims the name', () => {
    const r = ZRegisterRequest.parse({ name: ' Ada ', email: ' Ada@Example.COM ', password: 'secret123' })
    expect(r).toMatchObject({ name: 'Ada', email: 'ada@example.com' })
  })
})

describe('ZRegisterForm', () => {
  it("reports mismatched confirmation on confirmPassword with the spec's text", () => {
    const r = ZRegisterForm.safeParse({
      name: 'Ada',
      email: 'a@b.co',
      password: 'secret123',
      confirmPassword: 'secret124',
    })
    expect(r.error?.issues[0]).toMatchObject({
      message: MESSAGES.passwordsDontMatch,
      path: ['confirmPassword'],
    })
  })
})

describe('ZResetPasswordRequest', () => {
  it.each([
    [{}, MESSAGES.resetBothRequired],
    [{ newPassword: 'short', confirmPassword: 'x' }, MESSAGES.resetPasswordMin],
    [{ newPassword: 'abcdefgh', confirmPassword: 'abcdefgx' }, MESSAGES.resetPasswordsDoNotMatch],
    [{ newPassword: 'abcdefgh', confirmPassword: 'abcdefgh' }, MESSAGES.resetTokenInvalid],
  ])('checks in the spec order: %j', (input, message) => {
    const r = ZResetPasswordRequest.safeParse(input)
    expect(r.error?.issues).toHaveLength(1)
    expect(firstMessage(r)).toBe(message)
  })
})

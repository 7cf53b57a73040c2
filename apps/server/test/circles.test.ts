import { MESSAGES, messageKeyOf } from '@circles/shared'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SignedIn, addMember, createCircle, signedIn } from './support/circles'
import { type TestApp, createTestApp } from './support/test-app'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const MISSING_ID = '00000000-0000-4000-8000-000000000000'

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who?: SignedIn, payload?: object) {
  return t.app.inject({ method, url, headers: who?.auth, ...(payload && { payload }) })
}

/** An admin with a circle and one member; `outsider` belongs to no circle. */
async function circleWithMember() {
  const admin = await signedIn(t, { name: 'Ada Admin' })
  const member = await signedIn(t, { name: 'Max Member' })
  const outsider = await signedIn(t, { name: 'Olga Outsider' })
  const circle = await createCircle(t, admin)
  await addMember(t, admin, circle.id, member)
  return { admin, member, outsider, circle }
}

describe('POST /api/circles', () => {
  it('creates a circle with the creator as its admin and only member', async () => {
    const admin = await signedIn(t)
    const res = await call('POST', '/api/circles', admin, { name: '  Flat 3B  ', description: 'Our WG' })
    expect(res.statusCode).toBe(201)
    const { circle, message } = res.json()
    expect(message).toBe(MESSAGES.circleCreated)
    expect(circle).toMatchObject({
      name: 'Flat 3B',
      description: 'Our WG',
      adminId: admin.user.id,
      memberCount: 1,
    })

    const list = await call('GET', '/api/circles', admin)
    expect(list.json().circles).toEqual([
      { id: expect.any(String), role: 'ADMIN', joinedAt: expect.any(String), circle },
    ])
  })

  it('keeps an empty description as none', async () => {
    const admin = await signedIn(t)
    const circle = await createCircle(t, admin, { name: 'Garden', description: '   ' })
    expect(circle.description).toBeNull()
  })

  it.each([
    [{}, MESSAGES.required],
    [{ name: '   ' }, MESSAGES.required],
    [{ name: 'ab' }, MESSAGES.circleNameMin],
    [{ name: 'x'.repeat(101) }, MESSAGES.circleNameMax],
    [{ name: 'Okay name', description: 'x'.repeat(1001) }, MESSAGES.circleDescriptionMax],
    [{ name: 42 }, MESSAGES.required],
  ])('refuses %j with the spec message', async (payload, message) => {
    const admin = await signedIn(t)
    const res = await call('POST', '/api/circles', admin, payload)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ message, code: 'VALIDATION_ERROR', key: messageKeyOf(message) })
  })

  it('needs a session', async () => {
    const res = await call('POST', '/api/circles', undefined, { name: 'Nobody' })
    expect(res.statusCode).toBe(401)
  })

  it('limits a Personal account to 2 circles it administers', async () => {
    const admin = await signedIn(t)
    await createCircle(t, admin, { name: 'One' })
    await createCircle(t, admin, { name: 'Two' })
    const third = await call('POST', '/api/circles', admin, { name: 'Three' })
    expect(third.statusCode).toBe(403)
    expect(third.json()).toEqual({
      message: MESSAGES.circleLimitReached,
      code: 'PLAN_LIMIT_REACHED',
      key: 'circleLimitReached',
    })
    expect((await call('GET', '/api/circles', admin)).json().circles).toHaveLength(2)
  })

  it('two creations at once cannot both pass the limit', async () => {
    const admin = await signedIn(t)
    await createCircle(t, admin, { name: 'One' })
    const results = await Promise.all([
      call('POST', '/api/circles', admin, { name: 'Two' }),
      call('POST', '/api/circles', admin, { name: 'Three' }),
    ])
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 403])
  })
})

describe('PLAN_LIMITS=off', () => {
  it('lets the operator switch the Personal limits off', async () => {
    const unlimited = await createTestApp({ env: { PLAN_LIMITS: 'off' } })
    try {
      const admin = await signedIn(unlimited)
      for (const name of ['One', 'Two', 'Three']) await createCircle(unlimited, admin, { name })
      const list = await unlimited.app.inject({ method: 'GET', url: '/api/circles', headers: admin.auth })
      expect(list.json().circles).toHaveLength(3)
    } finally {
      await unlimited.close()
    }
  })
})

describe('GET /api/circles and GET /api/circles/:id', () => {
  it('lists only my circles, newest membership first, with my role', async () => {
    const { admin, member, outsider, circle } = await circleWithMember()
    const own = await createCircle(t, member, { name: 'Member’s own' })
    const list = (await call('GET', '/api/circles', member)).json().circles
    expect(list.map((e: { circle: { id: string }; role: string }) => [e.circle.id, e.role])).toEqual([
      [own.id, 'ADMIN'],
      [circle.id, 'MEMBER'],
    ])
    expect((await call('GET', '/api/circles', outsider)).json().circles).toEqual([])
    expect((await call('GET', '/api/circles', admin)).json().circles[0].circle.memberCount).toBe(2)
  })

  it('shows a member the circle with its members and roles', async () => {
    const { admin, member, circle } = await circleWithMember()
    const res = await call('GET', `/api/circles/${circle.id}`, member)
    expect(res.statusCode).toBe(200)
    const detail = res.json().circle
    expect(detail).toMatchObject({ id: circle.id, name: 'Makerspace', adminId: admin.user.id, items: [] })
    expect(detail.users).toEqual([
      {
        id: expect.any(String),
        role: 'ADMIN',
        userId: admin.user.id,
        joinedAt: expect.any(String),
        user: { id: admin.user.id, name: 'Ada Admin', email: admin.user.email, avatarUrl: null },
      },
      {
        id: expect.any(String),
        role: 'MEMBER',
        userId: member.user.id,
        joinedAt: expect.any(String),
        user: { id: member.user.id, name: 'Max Member', email: member.user.email, avatarUrl: null },
      },
    ])
  })

  it('answers an outsider exactly as for a circle that does not exist', async () => {
    const { outsider, circle } = await circleWithMember()
    const hidden = await call('GET', `/api/circles/${circle.id}`, outsider)
    const missing = await call('GET', `/api/circles/${MISSING_ID}`, outsider)
    const malformed = await call('GET', '/api/circles/not-a-uuid', outsider)
    for (const res of [hidden, missing, malformed]) {
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ message: MESSAGES.notFound, code: 'NOT_FOUND', key: 'notFound' })
    }
  })

  it('needs a session', async () => {
    const { circle } = await circleWithMember()
    expect((await call('GET', '/api/circles')).statusCode).toBe(401)
    expect((await call('GET', `/api/circles/${circle.id}`)).statusCode).toBe(401)
  })
})

describe('PUT /api/circles/:id', () => {
  it('lets the admin rename and describe the circle', async () => {
    const { admin, member, circle } = await circleWithMember()
    const res = await call('PUT', `/api/circles/${circle.id}`, admin, {
      name: 'Hackerspace',
      description: '',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      circle: { name: 'Hackerspace', description: null },
      message: MESSAGES.circleUpdated,
    })
    expect((await call('GET', `/api/circles/${circle.id}`, member)).json().circle.name).toBe('Hackerspace')
  })

  it('refuses a member (403), an outsider (404) and a bad name (400)', async () => {
    const { admin, member, outsider, circle } = await circleWithMember()
    const url = `/api/circles/${circle.id}`
    expect((await call('PUT', url, member, { name: 'Mine now' })).statusCode).toBe(403)
    expect((await call('PUT', url, outsider, { name: 'Mine now' })).statusCode).toBe(404)
    const bad = await call('PUT', url, admin, { name: 'ab' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe(MESSAGES.circleNameMin)
    expect((await call('GET', url, admin)).json().circle.name).toBe('Makerspace')
  })
})

describe('DELETE /api/circles/:id/users/:userId', () => {
  it('lets the admin remove a member, who then loses access', async () => {
    const { admin, member, circle } = await circleWithMember()
    const res = await call('DELETE', `/api/circles/${circle.id}/users/${member.user.id}`, admin)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ message: MESSAGES.memberRemoved })
    expect((await call('GET', `/api/circles/${circle.id}`, member)).statusCode).toBe(403) // NO_LONGER_MEMBER, docs/decisions/0027
    expect((await call('GET', '/api/circles', member)).json().circles).toEqual([])
    expect((await call('GET', `/api/circles/${circle.id}`, admin)).json().circle.users).toHaveLength(1)
  })

  it('does not remove the admin, a non-member, or let a member remove anyone', async () => {
    const { admin, member, outsider, circle } = await circleWithMember()
    const self = await call('DELETE', `/api/circles/${circle.id}/users/${admin.user.id}`, admin)
    expect(self.statusCode).toBe(409)
    expect(self.json().message).toBe(MESSAGES.cannotRemoveSelf)

    const stranger = await call('DELETE', `/api/circles/${circle.id}/users/${outsider.user.id}`, admin)
    expect(stranger.statusCode).toBe(404)
    expect(stranger.json().message).toBe(MESSAGES.notAMember)

    expect(
      (await call('DELETE', `/api/circles/${circle.id}/users/${admin.user.id}`, member)).statusCode,
    ).toBe(403)
    expect(
      (await call('DELETE', `/api/circles/${circle.id}/users/${member.user.id}`, outsider)).statusCode,
    ).toBe(404)
    const badId = await call('DELETE', `/api/circles/${circle.id}/users/nope`, admin)
    expect(badId.statusCode).toBe(400)
    expect(badId.json().message).toBe(MESSAGES.invalidUserId)
  })
})

describe('POST /api/circles/:id/transfer', () => {
  it('makes another member the admin and the admin a member', async () => {
    const { admin, member, circle } = await circleWithMember()
    const res = await call('POST', `/api/circles/${circle.id}/transfer`, admin, { userId: member.user.id })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      circle: { adminId: member.user.id },
      message: MESSAGES.ownershipTransferred,
    })

    const roles = (await call('GET', `/api/circles/${circle.id}`, admin)).json().circle.users
    expect(roles.map((u: { userId: string; role: string }) => [u.userId, u.role])).toEqual([
      [admin.user.id, 'MEMBER'],
      [member.user.id, 'ADMIN'],
    ])
    // The former admin has a member's rights now.
    expect((await call('PUT', `/api/circles/${circle.id}`, admin, { name: 'Mine again' })).statusCode).toBe(
      403,
    )
    expect((await call('PUT', `/api/circles/${circle.id}`, member, { name: 'New era' })).statusCode).toBe(200)
  })

  it('refuses a member, a non-member target and oneself', async () => {
    const { admin, member, outsider, circle } = await circleWithMember()
    const url = `/api/circles/${circle.id}/transfer`
    expect((await call('POST', url, member, { userId: member.user.id })).statusCode).toBe(403)
    expect((await call('POST', url, outsider, { userId: outsider.user.id })).statusCode).toBe(404)
    const toStranger = await call('POST', url, admin, { userId: outsider.user.id })
    expect(toStranger.statusCode).toBe(404)
    expect(toStranger.json().message).toBe(MESSAGES.notAMember)
    const toSelf = await call('POST', url, admin, { userId: admin.user.id })
    expect(toSelf.statusCode).toBe(409)
    expect(toSelf.json().message).toBe(MESSAGES.alreadyAdmin)
    expect((await call('POST', url, admin, {})).statusCode).toBe(400)
  })
})

describe('POST /api/circles/:id/leave', () => {
  it('lets a member leave', async () => {
    const { member, circle } = await circleWithMember()
    const res = await call('POST', `/api/circles/${circle.id}/leave`, member)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ message: MESSAGES.leftCircle })
    expect((await call('GET', `/api/circles/${circle.id}`, member)).statusCode).toBe(403) // NO_LONGER_MEMBER, docs/decisions/0027
  })

  it('asks the admin to transfer ownership first; an outsider gets 404', async () => {
    const { admin, outsider, circle } = await circleWithMember()
    const res = await call('POST', `/api/circles/${circle.id}/leave`, admin)
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({
      message: MESSAGES.adminMustTransfer,
      code: 'CONFLICT',
      key: 'adminMustTransfer',
    })
    expect((await call('POST', `/api/circles/${circle.id}/leave`, outsider)).statusCode).toBe(404)
  })
})

describe('every circle call needs a session', () => {
  it.each([
    ['GET', '/api/circles'],
    ['POST', '/api/circles'],
    ['GET', '/api/circles/:id'],
    ['PUT', '/api/circles/:id'],
    ['POST', '/api/circles/:id/users'],
    ['DELETE', '/api/circles/:id/users/:userId'],
    ['POST', '/api/circles/:id/transfer'],
    ['POST', '/api/circles/:id/leave'],
    ['POST', '/api/circles/:id/invitations/qr'],
    ['GET', '/api/circles/:id/invitations'],
    ['POST', '/api/circles/:id/invitations/:invId/resend'],
    ['DELETE', '/api/circles/:id/invitations/:invId'],
    ['POST', `/api/circles/invitations/${'ab'.repeat(32)}`],
  ] as const)('%s %s answers 401 without a token', async (method, pattern) => {
    const { admin, member, circle } = await circleWithMember()
    const url = pattern
      .replace(':id', circle.id)
      .replace(':userId', member.user.id)
      .replace(':invId', MISSING_ID)
    const res = await t.app.inject({
      method,
      url,
      ...(method !== 'GET' &&
        method !== 'DELETE' && { payload: { name: 'Nope', email: 'x@y.zz', userId: admin.user.id } }),
    })
    expect(res.statusCode).toBe(401)
    expect(res.json().code).toBe('UNAUTHORIZED')
  })
})

import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Socket, io as connect } from 'socket.io-client'
import { type SignedIn, addMember, createCircle, signedIn } from './support/circles'
import { type TestApp, createTestApp } from './support/test-app'

let t: TestApp
let url: string
const sockets: Socket[] = []
beforeAll(async () => {
  t = await createTestApp()
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
})
afterAll(async () => {
  for (const s of sockets) s.close()
  await t.close()
})

async function socketOf(who: SignedIn): Promise<Socket> {
  const socket = connect(url, {
    path: '/socket.io',
    auth: { token: who.auth.authorization.slice('Bearer '.length) },
    transports: ['websocket'],
  })
  sockets.push(socket)
  await new Promise((resolve, reject) => {
    socket.on('connected', resolve)
    socket.on('connect_error', reject)
  })
  return socket
}

async function roomSize(circleId: string) {
  return (await t.app.io.in(`circle:${circleId}`).fetchSockets()).length
}

async function eventually(check: () => Promise<boolean>) {
  const deadline = Date.now() + 5000
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe("a circle's socket room", () => {
  it('admits members only, and a removed member leaves it at once', async () => {
    const admin = await signedIn(t)
    const member = await signedIn(t)
    const outsider = await signedIn(t)
    const circle = await createCircle(t, admin)
    await addMember(t, admin, circle.id, member)

    const memberSocket = await socketOf(member)
    memberSocket.emit('join_circle', circle.id)
    await eventually(async () => (await roomSize(circle.id)) === 1)

    const outsiderSocket = await socketOf(outsider)
    const refused = new Promise<{ message: string }>((resolve) => outsiderSocket.on('error', resolve))
    outsiderSocket.emit('join_circle', circle.id)
    expect(await refused).toEqual({ message: 'Forbidden' })
    expect(await roomSize(circle.id)).toBe(1)

    const left = new Promise<{ circleId: string }>((resolve) => memberSocket.on('circle_left', resolve))
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/circles/${circle.id}/users/${member.user.id}`,
      headers: admin.auth,
    })
    expect(res.statusCode).toBe(200)
    expect(await left).toEqual({ circleId: circle.id })
    expect(await roomSize(circle.id)).toBe(0)
  })
})

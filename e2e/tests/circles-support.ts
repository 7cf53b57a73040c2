// Helpers for circles.spec.ts: signed-in sessions from the real API, circles and memberships made
// through the real endpoints (no mocks). Not a spec itself.
import type { APIRequestContext, Page } from '@playwright/test'
import { expect } from '../support/fixtures'
import { PASSWORD, createVerifiedUser } from './auth-support'

export interface Session {
  token: string
  user: { id: string; name: string; email: string }
}

/** A verified account, signed in through POST /api/users/login. */
export async function createSignedInUser(
  request: APIRequestContext,
  label: string,
  name: string,
): Promise<Session> {
  const { email } = await createVerifiedUser(request, label, name)
  const response = await request.post('/api/users/login', { data: { email, password: PASSWORD } })
  expect(response.status(), await response.text()).toBe(200)
  return (await response.json()) as Session
}

const auth = (session: Session) => ({ Authorization: `Bearer ${session.token}` })

/**
 * Puts a session into the browser the way a login leaves it (token, user, userId in localStorage, the
 * token mirrored into the session cookie, docs/decisions/0068). The next navigation starts the app signed
 * in as that user, its screen rendered by the server with its data.
 */
export async function signInAs(page: Page, session: Session) {
  if (!page.url().startsWith('http')) await page.goto('/about')
  await page.evaluate(({ token, user }) => {
    localStorage.setItem('token', token)
    localStorage.setItem('user', JSON.stringify(user))
    localStorage.setItem('userId', user.id)
    document.cookie = `circles_session=${token}; Path=/; SameSite=Strict`
  }, session)
}

/**
 * Page requests go without the session cookie: the server sends the frame, not the screen rendered with its
 * own answers (docs/decisions/0068), and the browser asks for the screen's data itself, where a test can
 * make it fail. Clearing the cookie would race the app, which writes it again on every load with a session;
 * `route.continue` cannot change a page request's cookies, so the page is fetched here without it.
 */
export async function pagesWithoutSessionCookie(page: Page) {
  // The context's route: the service worker's page requests pass it too (Chromium).
  await page.context().route('**/*', async (route) => {
    const request = route.request()
    // A page request, from the page or from the service worker (whose fetch of it is no 'document').
    const page = request.resourceType() === 'document' || request.headers().accept?.includes('text/html')
    if (!page || request.method() !== 'GET') return route.fallback()
    const cookie = (request.headers().cookie ?? '')
      .split('; ')
      .filter((pair) => !pair.startsWith('circles_session='))
      .join('; ')
    return route.fulfill({ response: await route.fetch({ headers: { ...request.headers(), cookie } }) })
  })
}

/** POST /api/circles as `session`; returns the new circle's id. */
export async function createCircle(
  request: APIRequestContext,
  session: Session,
  data: { name: string; description?: string },
): Promise<string> {
  const response = await request.post('/api/circles', { data, headers: auth(session) })
  expect(response.status(), await response.text()).toBe(201)
  return ((await response.json()) as { circle: { id: string } }).circle.id
}

/** The admin makes a QR invitation for the member's address, and the member accepts it. */
export async function joinCircle(
  request: APIRequestContext,
  circleId: string,
  admin: Session,
  member: Session,
) {
  const invited = await request.post(`/api/circles/${circleId}/invitations/qr`, {
    data: { email: member.user.email },
    headers: auth(admin),
  })
  expect(invited.status(), await invited.text()).toBe(201)
  const { token } = ((await invited.json()) as { invitation: { token: string } }).invitation
  const accepted = await request.post(`/api/circles/invitations/${token}`, { headers: auth(member) })
  expect(accepted.status(), await accepted.text()).toBe(200)
  expect(((await accepted.json()) as { alreadyMember: boolean }).alreadyMember).toBe(false)
}

/** The members card's row of one member. */
export function memberRow(page: Page, name: string) {
  return page.getByRole('main').getByRole('listitem').filter({ hasText: name })
}

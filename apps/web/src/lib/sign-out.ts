import { forgetWitnessKey } from '@/lib/ledger-verification/witness-key-store'
import { getSession, logout } from '@/lib/session'
import { within } from '@/lib/within'
import { forgetDeviceOnSignOut } from '@/pwa'
import { clearOfflineData } from '@/pwa/offline'

let leaving = false

/**
 * True from a deliberate logout until the next page loads: protected routes then render nothing
 * instead of sending the user to /login?returnUrl=… for the moment before the browser leaves.
 */
export function isLeavingAfterLogout(): boolean {
  return leaving
}

/**
 * The logout button: ends the session (after LIMITS.logoutDelayMs, spec 000 §4) and loads the landing
 * page as a new document, which is static HTML and keeps nothing of the previous user in memory.
 */
export async function signOutAndLeave(to = '/'): Promise<void> {
  leaving = true
  // Issue 27: this device's push notices end with its session (docs/decisions/0053).
  await forgetDeviceOnSignOut()
  // Issue 29: this device's witness key goes from the server and the device (docs/decisions/0063).
  const userId = getSession().user?.id
  if (userId)
    await within(
      forgetWitnessKey(userId).catch(() => undefined),
      3000,
    )
  await logout()
  // Before the page goes: the stored queries, ledger proofs and cached pages (docs/decisions/0054).
  await clearOfflineData()
  window.location.assign(to)
}

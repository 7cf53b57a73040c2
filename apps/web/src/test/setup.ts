import { cleanup } from '@/test/testing-library'
import { afterAll, afterEach } from 'vitest'
import { notify } from '@/lib/notify'
import { restoreSession } from '@/lib/session'
import { resetOnlineStatus } from '@/pwa/offline/online-status'

afterEach(() => {
  // Vitest runs without globals, so Testing Library cannot register its own cleanup.
  cleanup()
  // Each test starts signed out, in storage and in the session module's memory.
  localStorage.clear()
  restoreSession()
  // sonner keeps its toasts in module state: one test must not pass on a toast an earlier one left.
  notify.dismiss()
  // A network failure a test simulated leaves the device offline (pwa/offline): the next test starts online.
  resetOnlineStatus()
})

afterAll(async () => {
  // sonner removes a closed toast 200 ms later on a timer it does not clear on unmount; let such timers
  // run while the test's window still exists, instead of after the environment is torn down.
  await new Promise((resolve) => setTimeout(resolve, 250))
})

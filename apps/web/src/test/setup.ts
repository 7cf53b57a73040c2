import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'
import { restoreSession } from '@/lib/session'

afterEach(() => {
  // Vitest runs without globals, so Testing Library cannot register its own cleanup.
  cleanup()
  // Each test starts signed out, in storage and in the session module's memory.
  localStorage.clear()
  restoreSession()
})

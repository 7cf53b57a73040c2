import type { TLoginResponse } from '@circles/shared'
import type * as SimpleWebAuthnBrowser from '@simplewebauthn/browser'
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser'
import { useEffect, useRef } from 'react'
import {
  passkeyLoginOptions,
  passkeysSupported,
  pressedCeremonyRunning,
  verifyPasskeyLogin,
} from '../api/passkey-login'

/** Loaded once, when the login page first wants it (it stays out of the first bundle). */
let browserLibrary: Promise<typeof SimpleWebAuthnBrowser> | undefined
const loadBrowserLibrary = () => (browserLibrary ??= import('@simplewebauthn/browser'))

interface PasskeyAutofillOptions {
  /** False while a pressed passkey ceremony runs, or before the page may start one. */
  enabled: boolean
  onSignedIn(session: TLoginResponse): void
  /** The server refused what the chosen passkey signed (an unknown passkey, say). */
  onError(error: unknown): void
}

/**
 * Passkey autofill (issue 24, ADR 0036): when the browser supports conditional mediation, the login
 * page keeps a `navigator.credentials.get({ mediation: 'conditional' })` request open (through
 * @simplewebauthn/browser's useBrowserAutofill), so the email field's autofill lists the passkeys this
 * device holds for Circles. Picking one signs in without typing anything.
 *
 * One ceremony at a time: a pressed passkey button starts its own request, which aborts this one
 * (@simplewebauthn/browser's WebAuthnAbortService); `enabled` turns false meanwhile and true again
 * afterwards, which opens a new request. Leaving the page cancels the request if it is still ours.
 */
export function usePasskeyAutofill({ enabled, onSignedIn, onError }: PasskeyAutofillOptions) {
  const callbacks = useRef({ onSignedIn, onError })
  useEffect(() => {
    callbacks.current = { onSignedIn, onError }
  })

  useEffect(() => {
    if (!enabled || !passkeysSupported()) return
    let stopped = false
    let open = false
    let cancel: (() => void) | undefined

    async function arm() {
      const browser = await loadBrowserLibrary()
      if (stopped || !(await browser.browserSupportsWebAuthnAutofill())) return
      const options = await passkeyLoginOptions(undefined)
      // A press may have started its own ceremony while the options were on their way.
      if (stopped || pressedCeremonyRunning()) return
      cancel = () => browser.WebAuthnAbortService.cancelCeremony()
      open = true
      let credential
      try {
        credential = await browser.startAuthentication({
          optionsJSON: options.options as unknown as PublicKeyCredentialRequestOptionsJSON,
          useBrowserAutofill: true,
        })
      } finally {
        open = false
      }
      if (stopped) return
      try {
        callbacks.current.onSignedIn(await verifyPasskeyLogin(credential, undefined))
      } catch (error) {
        if (stopped) return
        callbacks.current.onError(error)
        // A fresh challenge for the next pick.
        void arm().catch(() => undefined)
      }
    }
    // Aborted (a press took over, or the page left), unsupported or refused options: autofill simply
    // does not offer passkeys; the buttons still work and say what went wrong.
    void arm().catch(() => undefined)

    return () => {
      stopped = true
      // Only our own request: a pressed ceremony that took over must keep running.
      if (open && !pressedCeremonyRunning()) cancel?.()
    }
  }, [enabled])
}

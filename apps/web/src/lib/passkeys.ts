/** True when this browser can run a WebAuthn ceremony at all (spec 000 §8 'not supported'). */
export function passkeysSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.PublicKeyCredential === 'function' &&
    typeof navigator !== 'undefined' &&
    Boolean(navigator.credentials)
  )
}

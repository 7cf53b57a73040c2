import type { Page } from '@playwright/test'

// Passkeys in Chromium: a CDP virtual authenticator (see ../shared/guides/testing.md).

/** A platform authenticator with user verification, as a phone or laptop has; returns its id. */
export interface VirtualAuthenticator {
  remove(): Promise<unknown>
  /** The passkeys it holds, as CDP reports them. */
  credentials(): Promise<{ credentialId: string; isResidentCredential: boolean }[]>
}

export async function addAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  })
  return {
    remove: () => cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId }),
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  }
}

/**
 * Chrome's virtual authenticator answers a conditional (autofill) request at once with the passkey it
 * holds, as if the person had picked it from the email field's autofill. Tests of the buttons take
 * autofill away, as a browser without conditional mediation has it.
 */
export async function withoutPasskeyAutofill(page: Page) {
  await page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', {
      value: () => Promise.resolve(false),
    })
  })
}

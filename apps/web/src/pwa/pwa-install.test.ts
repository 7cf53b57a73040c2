import { describe, expect, it, vi } from 'vitest'
import {
  bannerMode,
  createInstallController,
  INSTALL_DISMISSED_KEY,
  initPwaInstall,
  isIosSafari,
  type BeforeInstallPromptEvent,
  type InstallEnvironment,
  type InstallState,
} from './pwa-install'
import { INSTALL_APP_EVENT } from '@/lib/shell-events'

const UA = {
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  iphoneChrome:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/123.0.6312.52 Mobile/15E148 Safari/604.1',
  iphoneInstagram:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 320.0.2.27.91',
  ipadOsSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  desktopChrome:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
}

function environment(overrides: Partial<InstallEnvironment> = {}) {
  let dismissed = false
  const env: InstallEnvironment = {
    userAgent: UA.desktopChrome,
    platform: 'Linux x86_64',
    maxTouchPoints: 0,
    standalone: false,
    readDismissed: () => dismissed,
    rememberDismissed: vi.fn(() => {
      dismissed = true
    }),
    ...overrides,
  }
  return env
}

function promptEvent(outcome: 'accepted' | 'dismissed' = 'accepted') {
  const event = new Event('beforeinstallprompt', { cancelable: true }) as BeforeInstallPromptEvent
  const prompt = vi.fn(() => Promise.resolve())
  Object.assign(event, { prompt, userChoice: Promise.resolve({ outcome, platform: 'web' }) })
  return { event, prompt }
}

const base: InstallState = {
  installed: false,
  dismissed: false,
  canPrompt: false,
  iosSafari: false,
  requested: false,
}

describe('bannerMode', () => {
  it('shows the install button when the browser can prompt', () => {
    expect(bannerMode({ ...base, canPrompt: true })).toBe('prompt')
  })

  it('shows the iOS steps in iOS Safari', () => {
    expect(bannerMode({ ...base, iosSafari: true })).toBe('ios')
  })

  it('stays hidden with nothing to offer, once installed, and once dismissed', () => {
    expect(bannerMode(base)).toBeNull()
    expect(bannerMode({ ...base, canPrompt: true, installed: true })).toBeNull()
    expect(bannerMode({ ...base, canPrompt: true, dismissed: true })).toBeNull()
    expect(bannerMode({ ...base, iosSafari: true, dismissed: true })).toBeNull()
  })

  it('answers an explicit request even after a dismissal, with a hint where no prompt exists', () => {
    expect(bannerMode({ ...base, dismissed: true, requested: true, iosSafari: true })).toBe('ios')
    expect(bannerMode({ ...base, dismissed: true, requested: true })).toBe('manual')
    expect(bannerMode({ ...base, requested: true, installed: true })).toBeNull()
  })
})

describe('isIosSafari', () => {
  it('recognises Safari on iPhone and on iPadOS (a Mac with touch)', () => {
    expect(isIosSafari(UA.iphoneSafari, 'iPhone', 5)).toBe(true)
    expect(isIosSafari(UA.ipadOsSafari, 'MacIntel', 5)).toBe(true)
  })

  it('rejects other iOS browsers, in-app views, a real Mac and Android', () => {
    expect(isIosSafari(UA.iphoneChrome, 'iPhone', 5)).toBe(false)
    expect(isIosSafari(UA.iphoneInstagram, 'iPhone', 5)).toBe(false)
    expect(isIosSafari(UA.ipadOsSafari, 'MacIntel', 0)).toBe(false)
    expect(isIosSafari(UA.androidChrome, 'Linux armv8l', 5)).toBe(false)
  })
})

describe('install controller', () => {
  it('keeps the browser prompt, shows it on install and hides the banner for good when accepted', async () => {
    const controller = createInstallController(environment())
    const { event, prompt } = promptEvent('accepted')
    controller.capturePrompt(event)
    expect(event.defaultPrevented).toBe(true)
    expect(bannerMode(controller.getState())).toBe('prompt')

    await expect(controller.promptInstall()).resolves.toBe('accepted')
    expect(prompt).toHaveBeenCalledTimes(1)
    expect(bannerMode(controller.getState())).toBeNull()
    // A prompt is good for one use only.
    await expect(controller.promptInstall()).resolves.toBe('unavailable')
  })

  it('remembers a no in the browser dialog like a dismissal', async () => {
    const env = environment()
    const controller = createInstallController(env)
    controller.capturePrompt(promptEvent('dismissed').event)
    await expect(controller.promptInstall()).resolves.toBe('dismissed')
    expect(env.rememberDismissed).toHaveBeenCalled()
    expect(controller.getState().dismissed).toBe(true)
  })

  it('remembers a dismissal across page loads', () => {
    const env = environment()
    const first = createInstallController(env)
    first.capturePrompt(promptEvent().event)
    const listener = vi.fn()
    first.subscribe(listener)
    first.dismiss()
    expect(listener).toHaveBeenCalled()
    expect(bannerMode(first.getState())).toBeNull()

    const next = createInstallController(env)
    next.capturePrompt(promptEvent().event)
    expect(bannerMode(next.getState())).toBeNull()
  })

  it('stores the dismissal in localStorage in the browser environment', () => {
    const controller = createInstallController()
    controller.dismiss()
    expect(localStorage.getItem(INSTALL_DISMISSED_KEY)).not.toBeNull()
    expect(createInstallController().getState().dismissed).toBe(true)
  })

  it('knows the app is installed when running standalone or after appinstalled', () => {
    expect(createInstallController(environment({ standalone: true })).getState().installed).toBe(true)
    const standaloneIos = createInstallController(
      environment({ standalone: true, userAgent: UA.iphoneSafari, platform: 'iPhone', maxTouchPoints: 5 }),
    )
    expect(bannerMode(standaloneIos.getState())).toBeNull()

    const controller = createInstallController(environment())
    const target = new EventTarget() as unknown as Window
    const detach = controller.attach(target)
    target.dispatchEvent(promptEvent().event)
    expect(bannerMode(controller.getState())).toBe('prompt')
    target.dispatchEvent(new Event('appinstalled'))
    expect(controller.getState().installed).toBe(true)
    expect(bannerMode(controller.getState())).toBeNull()
    detach()
  })

  it('answers INSTALL_APP_EVENT with the prompt, or with instructions where there is none', async () => {
    const env = environment()
    const controller = createInstallController(env)
    const target = new EventTarget() as unknown as Window
    controller.attach(target)
    controller.dismiss()

    target.dispatchEvent(new Event(INSTALL_APP_EVENT))
    expect(bannerMode(controller.getState())).toBe('manual')
    controller.dismiss()
    expect(bannerMode(controller.getState())).toBeNull()

    const { event, prompt } = promptEvent()
    target.dispatchEvent(event)
    target.dispatchEvent(new Event(INSTALL_APP_EVENT))
    await vi.waitFor(() => expect(prompt).toHaveBeenCalledTimes(1))
  })

  it('shows the iOS steps in iOS Safari, and after a dismissal only on request', () => {
    const ios = environment({ userAgent: UA.iphoneSafari, platform: 'iPhone', maxTouchPoints: 5 })
    const controller = createInstallController(ios)
    expect(bannerMode(controller.getState())).toBe('ios')
    controller.dismiss()
    expect(bannerMode(createInstallController(ios).getState())).toBeNull()
    void controller.requestInstall()
    expect(bannerMode(controller.getState())).toBe('ios')
  })

  it('is one controller per page, listening on window', () => {
    const shared = initPwaInstall()
    expect(initPwaInstall()).toBe(shared)
    const { event } = promptEvent()
    window.dispatchEvent(event)
    expect(shared.getState().canPrompt).toBe(true)
  })
})

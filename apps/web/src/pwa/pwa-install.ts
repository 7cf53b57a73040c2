/**
 * Whether and how Circles can be installed (spec 000 §1, §2, §4), without a framework: the static
 * landing page and the React app share one controller. It keeps the browser's deferred
 * `beforeinstallprompt`, knows when the app is installed (`appinstalled`, display-mode standalone, iOS's
 * navigator.standalone), recognises iOS Safari (no prompt there: the banner shows instructions) and
 * remembers a dismissal. INSTALL_APP_EVENT (the landing page's "Install app") prompts at once, or shows
 * the instructions even after a dismissal.
 */
import { readItem, writeItem } from '@/lib/storage'
import { INSTALL_APP_EVENT } from '@/lib/shell-events'

/** What the banner shows: the install button, the iOS steps, or the browser-menu hint. */
export type InstallBannerMode = 'prompt' | 'ios' | 'manual'
export type InstallOutcome = 'accepted' | 'dismissed' | 'unavailable'

export interface InstallState {
  installed: boolean
  dismissed: boolean
  /** A deferred beforeinstallprompt is waiting to be shown. */
  canPrompt: boolean
  iosSafari: boolean
  /** The visitor asked for the install (e.g. a footer link): shown even after a dismissal. */
  requested: boolean
}

/** Chromium's event; not in TypeScript's DOM types. */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<unknown> | void
  readonly userChoice?: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>
}

export const INSTALL_DISMISSED_KEY = 'installBannerDismissed'

/** The banner for a state, or null when it stays hidden (installed, dismissed, nothing to offer). */
export function bannerMode(state: InstallState): InstallBannerMode | null {
  if (state.installed) return null
  if (state.requested) return state.canPrompt ? 'prompt' : state.iosSafari ? 'ios' : 'manual'
  if (state.dismissed) return null
  if (state.canPrompt) return 'prompt'
  if (state.iosSafari) return 'ios'
  return null
}

/**
 * Safari on iPhone, iPod or iPad (iPadOS reports itself as a Mac with touch). Other iOS browsers and
 * in-app web views say so in their user agent and cannot add to the home screen the same way.
 */
export function isIosSafari(userAgent: string, platform = '', maxTouchPoints = 0): boolean {
  const ios = /iPhone|iPad|iPod/.test(userAgent) || (platform === 'MacIntel' && maxTouchPoints > 1)
  if (!ios) return false
  return (
    /Safari\//.test(userAgent) && !/CriOS|FxiOS|EdgiOS|OPiOS|GSA\/|FBAN|FBAV|Instagram|Line\//.test(userAgent)
  )
}

export interface InstallEnvironment {
  userAgent: string
  platform: string
  maxTouchPoints: number
  /** Running as the installed app right now. */
  standalone: boolean
  readDismissed(): boolean
  rememberDismissed(): void
}

export function browserEnvironment(): InstallEnvironment {
  const nav = typeof navigator === 'undefined' ? undefined : navigator
  const standalone =
    typeof window !== 'undefined' &&
    (window.matchMedia?.('(display-mode: standalone)').matches === true ||
      (nav as (Navigator & { standalone?: boolean }) | undefined)?.standalone === true)
  return {
    userAgent: nav?.userAgent ?? '',
    platform: nav?.platform ?? '',
    maxTouchPoints: nav?.maxTouchPoints ?? 0,
    standalone,
    readDismissed: () => readItem(INSTALL_DISMISSED_KEY) !== null,
    rememberDismissed: () => writeItem(INSTALL_DISMISSED_KEY, new Date().toISOString()),
  }
}

export interface InstallController {
  getState(): InstallState
  subscribe(listener: () => void): () => void
  /** Keeps the browser's prompt for later (called with the beforeinstallprompt event). */
  capturePrompt(event: BeforeInstallPromptEvent): void
  markInstalled(): void
  /** Shows the browser's install dialog; only from a click (the browser requires the gesture). */
  promptInstall(): Promise<InstallOutcome>
  /** Hides the banner and remembers it on this device. */
  dismiss(): void
  /** "Install app": the prompt when there is one, else the banner with instructions. */
  requestInstall(): Promise<InstallOutcome>
  /** Listens to the window's install events; returns the cleanup. */
  attach(target: Window): () => void
}

export function createInstallController(env: InstallEnvironment = browserEnvironment()): InstallController {
  let deferred: BeforeInstallPromptEvent | null = null
  let state: InstallState = {
    installed: env.standalone,
    dismissed: env.readDismissed(),
    canPrompt: false,
    iosSafari: !env.standalone && isIosSafari(env.userAgent, env.platform, env.maxTouchPoints),
    requested: false,
  }
  const listeners = new Set<() => void>()

  function update(patch: Partial<InstallState>): void {
    const next = { ...state, ...patch }
    if ((Object.keys(patch) as Array<keyof InstallState>).every((key) => next[key] === state[key])) return
    state = next
    for (const listener of listeners) listener()
  }

  const controller: InstallController = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    capturePrompt(event) {
      // Without preventDefault Chrome shows its own mini-infobar; the banner is ours.
      event.preventDefault()
      deferred = event
      update({ canPrompt: true })
    },
    markInstalled() {
      deferred = null
      update({ installed: true, canPrompt: false, requested: false })
    },
    async promptInstall() {
      const event = deferred
      if (!event) return 'unavailable'
      // A prompt can be shown once; the browser fires a new event on a later visit.
      deferred = null
      update({ canPrompt: false, requested: false })
      try {
        await event.prompt()
        const choice = await event.userChoice
        if (choice?.outcome === 'accepted') return 'accepted'
        if (choice?.outcome === 'dismissed') {
          // Saying no in the browser's own dialog counts as dismissing the banner.
          env.rememberDismissed()
          update({ dismissed: true })
          return 'dismissed'
        }
        return 'unavailable'
      } catch {
        return 'unavailable'
      }
    },
    dismiss() {
      env.rememberDismissed()
      update({ dismissed: true, requested: false })
    },
    async requestInstall() {
      if (state.installed) return 'unavailable'
      if (deferred) return controller.promptInstall()
      update({ requested: true })
      return 'unavailable'
    },
    attach(target) {
      const abort = new AbortController()
      const { signal } = abort
      target.addEventListener(
        'beforeinstallprompt',
        (event) => controller.capturePrompt(event as BeforeInstallPromptEvent),
        { signal },
      )
      target.addEventListener('appinstalled', () => controller.markInstalled(), { signal })
      target.addEventListener(INSTALL_APP_EVENT, () => void controller.requestInstall(), { signal })
      const standalone = target.matchMedia?.('(display-mode: standalone)')
      standalone?.addEventListener(
        'change',
        (event) => {
          if (event.matches) controller.markInstalled()
        },
        { signal },
      )
      return () => abort.abort()
    },
  }
  return controller
}

let shared: InstallController | null = null

/**
 * The page's one controller, listening from the first call on. Call it early (main.tsx and the landing
 * script do, before anything renders): Chrome fires beforeinstallprompt once, soon after load.
 */
export function initPwaInstall(): InstallController {
  if (!shared) {
    shared = createInstallController()
    if (typeof window !== 'undefined') shared.attach(window)
  }
  return shared
}

import { LANGUAGES, LIMITS, type Language } from '@circles/shared'
import { storedLanguage } from '@/lib/session'
import { COOKIE_PREFERENCES_EVENT, INSTALL_APP_EVENT } from '@/lib/shell-events'

/**
 * Everything interactive on the landing page, without React: the page ships as prerendered HTML and
 * only this module runs on it. The markup opts in through data attributes:
 *
 * - `data-landing-header`: gets `data-scrolled="true"` once the page is scrolled past
 *   LIMITS.headerScrollThresholdPx (spec 000 §2), `"false"` above it; CSS does the rest.
 * - `data-menu-toggle` (a button with `aria-controls` and `aria-expanded`): opens and closes the panel
 *   it controls (shown/hidden with the `hidden` attribute). Escape closes it and returns focus to the
 *   button; following a link inside closes it.
 * - `data-set-language="de"`: remembers the choice (storage and a `lang` cookie the server reads to
 *   pick the prerendered page) and reloads.
 * - `data-cookie-preferences`: asks the consent module to open its preferences.
 * - `data-install-app`: asks the PWA module to show the install prompt.
 */

const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 60 * 60 * 24 * 365

/**
 * Stores an explicit language choice where the app (storage) and the server (the `lang` cookie, which
 * picks the prerendered page) read it. The same cookie as lib/i18n.ts writes; that module is not
 * imported here because it brings i18next along.
 */
function rememberLanguage(language: Language): void {
  storedLanguage.set(language)
  const secure = location.protocol === 'https:' ? '; Secure' : ''
  document.cookie = `lang=${language}; Path=/; Max-Age=${LANGUAGE_COOKIE_MAX_AGE_SECONDS}; SameSite=Lax${secure}`
}

function isLanguage(value: string | null): value is Language {
  return (LANGUAGES as readonly string[]).includes(value ?? '')
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]'

export function enhanceLanding(root: ParentNode = document): () => void {
  const controller = new AbortController()
  const { signal } = controller
  const events = root as unknown as EventTarget

  // The language buttons came disabled, waiting for a script to handle them (components/public): this one.
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-set-language]:disabled')) {
    button.disabled = false
    button.classList.remove('cursor-progress')
  }

  // Header style after scrolling.
  const header = root.querySelector<HTMLElement>('[data-landing-header]')
  let frame = 0
  const updateHeader = () => {
    frame = 0
    header?.setAttribute('data-scrolled', String(window.scrollY > LIMITS.headerScrollThresholdPx))
  }
  if (header) {
    updateHeader()
    window.addEventListener(
      'scroll',
      () => {
        // One update per frame however often the browser reports scrolling.
        frame ||= requestAnimationFrame(updateHeader)
      },
      { passive: true, signal },
    )
  }

  // Mobile menu.
  const toggle = root.querySelector<HTMLButtonElement>('[data-menu-toggle]')
  const panelId = toggle?.getAttribute('aria-controls')
  const panel = panelId ? root.querySelector<HTMLElement>(`[id="${panelId}"]`) : null
  const isOpen = () => toggle?.getAttribute('aria-expanded') === 'true'
  const setMenu = (open: boolean) => {
    if (!toggle || !panel) return
    toggle.setAttribute('aria-expanded', String(open))
    panel.hidden = !open
    if (open) panel.querySelector<HTMLElement>(FOCUSABLE)?.focus()
  }

  events.addEventListener(
    'click',
    (event) => {
      const target = event.target
      if (!(target instanceof Element)) return

      if (toggle && panel && target.closest('[data-menu-toggle]') === toggle) {
        setMenu(!isOpen())
        return
      }

      const language = target.closest('[data-set-language]')
      if (language) {
        event.preventDefault()
        const value = language.getAttribute('data-set-language')
        if (!isLanguage(value)) return
        rememberLanguage(value)
        // The page is static HTML in one language: the other one comes from the server.
        if (language.getAttribute('aria-pressed') !== 'true') location.reload()
        return
      }

      if (target.closest('[data-cookie-preferences]')) {
        event.preventDefault()
        window.dispatchEvent(new CustomEvent(COOKIE_PREFERENCES_EVENT))
        return
      }

      if (target.closest('[data-install-app]')) {
        event.preventDefault()
        window.dispatchEvent(new CustomEvent(INSTALL_APP_EVENT))
        return
      }

      // Following a link in the open menu (usually an anchor on this page) closes the menu.
      if (panel && isOpen() && target.closest('a[href]') && panel.contains(target)) setMenu(false)
    },
    { signal },
  )

  document.addEventListener(
    'keydown',
    (event) => {
      if (event.key !== 'Escape' || !isOpen()) return
      setMenu(false)
      toggle?.focus()
    },
    { signal },
  )

  return () => {
    controller.abort()
    if (frame) cancelAnimationFrame(frame)
  }
}

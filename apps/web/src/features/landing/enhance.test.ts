import { LIMITS } from '@circles/shared'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n, initI18n, loadNamespaces } from '@/lib/i18n'
import { storedLanguage } from '@/lib/session'
import { COOKIE_PREFERENCES_EVENT, INSTALL_APP_EVENT } from '@/lib/shell-events'
import { enhanceLanding } from './enhance'
import { HomePage } from './routes/home-page'

/**
 * The page as production ships it: the landing's React markup rendered to a string (as the prerender
 * does), put into a document with no React attached, and enhanced by the script alone.
 */
function loadStaticLanding(): void {
  document.body.innerHTML = renderToString(createElement(HomePage))
}

const header = () => document.querySelector<HTMLElement>('[data-landing-header]')!
const toggle = () => document.querySelector<HTMLButtonElement>('[data-menu-toggle]')!
const menu = () => document.getElementById(toggle().getAttribute('aria-controls')!)!

function click(element: Element): MouseEvent {
  const event = new MouseEvent('click', { bubbles: true, cancelable: true })
  element.dispatchEvent(event)
  return event
}

function pressEscape(): void {
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }))
}

function scrollTo(y: number): void {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true })
  window.dispatchEvent(new Event('scroll'))
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve))

let cleanup: () => void = () => undefined

beforeAll(async () => {
  await initI18n('en')
  await i18n.changeLanguage('en')
  await loadNamespaces('landing')
})

beforeEach(() => {
  scrollTo(0)
  document.cookie = 'lang=; Path=/; Max-Age=0'
  loadStaticLanding()
  cleanup = enhanceLanding()
})

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  document.body.innerHTML = ''
})

describe('header', () => {
  it(`changes style once the page is scrolled past ${LIMITS.headerScrollThresholdPx} px`, async () => {
    expect(header().dataset.scrolled).toBe('false')

    scrollTo(LIMITS.headerScrollThresholdPx)
    await nextFrame()
    expect(header().dataset.scrolled).toBe('false')

    scrollTo(LIMITS.headerScrollThresholdPx + 1)
    await nextFrame()
    expect(header().dataset.scrolled).toBe('true')

    scrollTo(0)
    await nextFrame()
    expect(header().dataset.scrolled).toBe('false')
  })

  it('starts scrolled when the page loads further down (a reload, a #pricing link)', () => {
    cleanup()
    scrollTo(500)
    cleanup = enhanceLanding()
    expect(header().dataset.scrolled).toBe('true')
  })

  it('links to the four sections of spec 000 §2', () => {
    const nav = document.querySelector('nav[aria-label="Main"]')!
    const hrefs = [...nav.querySelectorAll('a')].map((link) => link.getAttribute('href'))
    expect(hrefs).toEqual(['#how-it-works', '#features', '#pricing', '#faq'])
    for (const href of hrefs) expect(document.querySelector(href!), href!).not.toBeNull()
  })
})

describe('mobile menu', () => {
  it('is closed and hidden to begin with', () => {
    expect(toggle().getAttribute('aria-expanded')).toBe('false')
    expect(menu().hidden).toBe(true)
  })

  it('opens, moves focus into the menu, and closes again with the button', () => {
    click(toggle())
    expect(toggle().getAttribute('aria-expanded')).toBe('true')
    expect(menu().hidden).toBe(false)
    expect(document.activeElement).toBe(menu().querySelector('a'))

    click(toggle())
    expect(toggle().getAttribute('aria-expanded')).toBe('false')
    expect(menu().hidden).toBe(true)
  })

  it('closes with Escape and gives the focus back to the button', () => {
    click(toggle())
    pressEscape()
    expect(menu().hidden).toBe(true)
    expect(toggle().getAttribute('aria-expanded')).toBe('false')
    expect(document.activeElement).toBe(toggle())
  })

  it('ignores Escape while closed', () => {
    const other = document.querySelector<HTMLAnchorElement>('a[href="/register"]')!
    other.focus()
    pressEscape()
    expect(document.activeElement).toBe(other)
  })

  it('closes when a link in it is followed', () => {
    click(toggle())
    const pricing = menu().querySelector<HTMLAnchorElement>('a[href="#pricing"]')!
    const event = click(pricing)
    expect(menu().hidden).toBe(true)
    // The browser still follows the anchor.
    expect(event.defaultPrevented).toBe(false)
  })
})

describe('language buttons', () => {
  it('that came disabled, waiting for a script, work once it runs', () => {
    document.body.insertAdjacentHTML(
      'beforeend',
      '<button type="button" data-set-language="de" disabled class="cursor-progress h-8">de</button>',
    )
    const cleanup = enhanceLanding()
    const waiting = document.querySelectorAll<HTMLButtonElement>('button[data-set-language]')
    expect(
      [...waiting].every((button) => !button.disabled && !button.classList.contains('cursor-progress')),
    ).toBe(true)
    cleanup()
  })

  it('remember the choice in storage and in the lang cookie, then reload into it', () => {
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => undefined)
    const german = document.querySelector('[data-set-language="de"]')!

    click(german)

    expect(storedLanguage.get()).toBe('de')
    expect(document.cookie).toContain('lang=de')
    expect(reload).toHaveBeenCalledOnce()
  })

  it('do not reload for the language already shown, but still remember it', () => {
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => undefined)
    const english = document.querySelector('[data-set-language="en"]')!
    expect(english.getAttribute('aria-pressed')).toBe('true')

    click(english)

    expect(storedLanguage.get()).toBe('en')
    expect(document.cookie).toContain('lang=en')
    expect(reload).not.toHaveBeenCalled()
  })
})

describe('footer actions', () => {
  it('the cookie preferences button asks the consent module to open', () => {
    const listener = vi.fn()
    window.addEventListener(COOKIE_PREFERENCES_EVENT, listener)
    click(document.querySelector('[data-cookie-preferences]')!)
    window.removeEventListener(COOKIE_PREFERENCES_EVENT, listener)
    expect(listener).toHaveBeenCalledOnce()
  })

  it('the install link asks the PWA module for the prompt instead of following "#"', () => {
    const listener = vi.fn()
    window.addEventListener(INSTALL_APP_EVENT, listener)
    const link = document.querySelector('[data-install-app]')!
    expect(link.getAttribute('href')).toBe('#')
    const event = click(link)
    window.removeEventListener(INSTALL_APP_EVENT, listener)
    expect(listener).toHaveBeenCalledOnce()
    expect(event.defaultPrevented).toBe(true)
  })
})

describe('cleanup', () => {
  it('removes every listener', async () => {
    const listener = vi.fn()
    window.addEventListener(COOKIE_PREFERENCES_EVENT, listener)
    cleanup()

    click(toggle())
    click(document.querySelector('[data-cookie-preferences]')!)
    scrollTo(400)
    await nextFrame()
    window.removeEventListener(COOKIE_PREFERENCES_EVENT, listener)

    expect(menu().hidden).toBe(true)
    expect(listener).not.toHaveBeenCalled()
    expect(header().dataset.scrolled).toBe('false')
  })

  it('lets the page be enhanced again without doubled handlers (React StrictMode mounts twice)', () => {
    cleanup()
    cleanup = enhanceLanding()
    click(toggle())
    expect(menu().hidden).toBe(false)
  })
})

import { describe, expect, it } from 'vitest'
import { initPwaInstall, type BeforeInstallPromptEvent } from '@/pwa'
import { startStaticPageShell } from '@/lib/static-page-shell'

describe('static page shell (the landing page without React)', () => {
  it('fills the banner hosts of the prerendered markup in the page language', async () => {
    document.head.insertAdjacentHTML(
      'beforeend',
      `<meta name="circles-config" content='{"contactEmail":"a@b.c","staging":true}'>`,
    )
    document.documentElement.lang = 'de'
    document.body.innerHTML =
      '<div class="sticky top-0"><div data-shell-banners><div data-staging-banner-host></div>' +
      '<div data-install-banner-host></div></div></div>'

    await startStaticPageShell()
    expect(document.querySelector('[data-staging-banner-host] section')?.getAttribute('aria-label')).toBe(
      'Staging',
    )
    expect(document.querySelector('[data-staging-banner-host]')?.textContent).toContain('Testumgebung')
    expect(document.querySelector('[data-install-banner]')).toBeNull()
    expect(document.documentElement.style.getPropertyValue('--app-banners-height')).toMatch(/^\d+px$/)

    const event = new Event('beforeinstallprompt', { cancelable: true }) as BeforeInstallPromptEvent
    Object.assign(event, { prompt: () => Promise.resolve() })
    window.dispatchEvent(event)
    expect(initPwaInstall().getState().canPrompt).toBe(true)
    expect(document.querySelector('[data-install-banner]')?.textContent).toContain('Circles installieren')
  })
})

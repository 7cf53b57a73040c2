import { describe, expect, it, vi } from 'vitest'
import { mountInstallBanner, type InstallBannerStrings } from './install-banner'
import {
  createInstallController,
  type BeforeInstallPromptEvent,
  type InstallEnvironment,
} from './pwa-install'
import { mountStagingBanner } from '@/lib/staging-banner'

const strings: InstallBannerStrings = {
  title: 'Install Circles',
  install: 'Install',
  dismiss: 'Dismiss',
  iosBody: 'Three steps:',
  iosSteps: ['Tap Share', 'Choose Add to Home Screen', 'Tap Add'],
  manualBody: 'Use the browser menu.',
}

function environment(overrides: Partial<InstallEnvironment> = {}): InstallEnvironment {
  let dismissed = false
  return {
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0.0.0 Safari/537.36',
    platform: 'Linux x86_64',
    maxTouchPoints: 0,
    standalone: false,
    readDismissed: () => dismissed,
    rememberDismissed: () => {
      dismissed = true
    },
    ...overrides,
  }
}

function promptEvent() {
  const event = new Event('beforeinstallprompt', { cancelable: true }) as BeforeInstallPromptEvent
  const prompt = vi.fn(() => Promise.resolve())
  Object.assign(event, { prompt, userChoice: Promise.resolve({ outcome: 'accepted' }) })
  return { event, prompt }
}

function button(container: HTMLElement, name: string): HTMLButtonElement {
  const found = [...container.querySelectorAll('button')].find(
    (candidate) => (candidate.getAttribute('aria-label') ?? candidate.textContent) === name,
  )
  if (!found) throw new Error(`no button ${name}`)
  return found
}

describe('install banner (plain DOM)', () => {
  it('renders nothing until the app is installable', () => {
    const container = document.createElement('div')
    const banner = mountInstallBanner(container, strings, createInstallController(environment()))
    expect(container.childElementCount).toBe(0)
    banner.destroy()
  })

  it('offers install and dismiss once the browser can prompt, and installs on click', async () => {
    const controller = createInstallController(environment())
    const container = document.createElement('div')
    mountInstallBanner(container, strings, controller)
    const { event, prompt } = promptEvent()
    controller.capturePrompt(event)

    const region = container.querySelector('section')!
    expect(region.getAttribute('aria-labelledby')).toBe(container.querySelector('p')!.id)
    expect(region.textContent).toContain('Install Circles')
    // One row where the browser installs at a tap: the title says it (docs/decisions/0068).
    expect(region.querySelectorAll('p')).toHaveLength(1)

    button(container, 'Install').click()
    await vi.waitFor(() => expect(prompt).toHaveBeenCalled())
    expect(container.childElementCount).toBe(0)
  })

  it('goes away on dismiss and stays away', () => {
    const env = environment()
    const controller = createInstallController(env)
    const container = document.createElement('div')
    mountInstallBanner(container, strings, controller)
    controller.capturePrompt(promptEvent().event)
    button(container, 'Dismiss').click()
    expect(container.childElementCount).toBe(0)

    const again = createInstallController(env)
    again.capturePrompt(promptEvent().event)
    const next = document.createElement('div')
    mountInstallBanner(next, strings, again)
    expect(next.childElementCount).toBe(0)
  })

  it('lists the three iOS steps without an install button', () => {
    const container = document.createElement('div')
    mountInstallBanner(
      container,
      strings,
      createInstallController(
        environment({
          userAgent:
            'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
          platform: 'iPhone',
          maxTouchPoints: 5,
        }),
      ),
    )
    const steps = [...container.querySelectorAll('ol > li')].map((item) => item.textContent)
    expect(steps).toEqual(['Tap Share', 'Choose Add to Home Screen', 'Tap Add'])
    expect(() => button(container, 'Install')).toThrow()
    expect(button(container, 'Dismiss')).toBeTruthy()
  })

  it('takes new strings (language switch) and cleans up', () => {
    const controller = createInstallController(environment())
    const container = document.createElement('div')
    const banner = mountInstallBanner(container, strings, controller)
    controller.capturePrompt(promptEvent().event)
    banner.update({ ...strings, title: 'Circles installieren', install: 'Installieren' })
    expect(container.textContent).toContain('Circles installieren')
    expect(button(container, 'Installieren')).toBeTruthy()
    banner.destroy()
    expect(container.childElementCount).toBe(0)
    controller.capturePrompt(promptEvent().event)
    expect(container.childElementCount).toBe(0)
  })
})

describe('staging banner (plain DOM)', () => {
  const stagingStrings = { label: 'Staging', message: 'Test environment.' }

  it('shows only on staging', () => {
    const production = document.createElement('div')
    mountStagingBanner(production, stagingStrings, false)
    expect(production.childElementCount).toBe(0)

    const staging = document.createElement('div')
    const banner = mountStagingBanner(staging, stagingStrings, true)
    const region = staging.querySelector('section')!
    expect(region.getAttribute('aria-label')).toBe('Staging')
    expect(region.textContent).toContain('Test environment.')
    banner.update({ label: 'Staging', message: 'Testumgebung.' })
    expect(staging.textContent).toContain('Testumgebung.')
    banner.destroy()
    expect(staging.childElementCount).toBe(0)
  })
})

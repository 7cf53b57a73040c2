/**
 * The staging-environment strip (spec 000 §1), shown when the server says STAGING (runtime config), as
 * plain DOM for the landing page; components/staging-banner.tsx wraps it for the app.
 */
import { domIcon, el } from '@/lib/dom-icons'
import { runtimeConfig } from '@/lib/runtime-config'
import type { MountedBanner } from '@/pwa'

export interface StagingBannerStrings {
  label: string
  message: string
}

export function mountStagingBanner(
  container: HTMLElement,
  initialStrings: StagingBannerStrings,
  staging: boolean = runtimeConfig().staging,
): MountedBanner<StagingBannerStrings> {
  function render(strings: StagingBannerStrings): void {
    container.replaceChildren()
    if (!staging) return
    container.append(
      el(
        'section',
        {
          className: 'border-b border-warning/25 bg-warning-soft text-fg',
          attrs: { 'aria-label': strings.label, 'data-staging-banner': '' },
        },
        el(
          'p',
          {
            className:
              'mx-auto flex w-full max-w-6xl items-center justify-center gap-2 px-4 py-1.5 text-center text-xs sm:px-6',
          },
          domIcon('flask', 'size-4 text-warning'),
          el('strong', { className: 'font-semibold text-warning', text: strings.label }),
          el('span', { text: strings.message }),
        ),
      ),
    )
  }

  render(initialStrings)
  return { update: render, destroy: () => container.replaceChildren() }
}

/**
 * The install banner (spec 000 §2) as plain DOM, so the static landing page can show it without React;
 * components/install-banner.tsx wraps it for the app. It follows the install controller: shown when
 * installable and not dismissed, with an install and a dismiss button, or iOS Safari's three steps.
 */
import { domIcon, el } from '@/lib/dom-icons'
import { bannerMode, initPwaInstall, type InstallController } from './pwa-install'

export interface InstallBannerStrings {
  title: string
  install: string
  /** Accessible name of the close button. */
  dismiss: string
  /** iOS Safari: lead-in and the three steps (tap Share, Add to Home Screen, confirm). */
  iosBody: string
  iosSteps: readonly [string, string, string]
  /** Asked for an install where the browser offers no prompt (e.g. Firefox, or one already used). */
  manualBody: string
}

/** A mounted banner: new strings (language switch) or removal. */
export interface MountedBanner<S = InstallBannerStrings> {
  update(strings: S): void
  destroy(): void
}

const BUTTON =
  'inline-flex items-center justify-center gap-2 rounded-md text-sm font-medium transition-colors duration-150'
let instances = 0

export function mountInstallBanner(
  container: HTMLElement,
  initialStrings: InstallBannerStrings,
  controller: InstallController = initPwaInstall(),
): MountedBanner {
  let strings = initialStrings
  const titleId = `install-banner-title-${++instances}`

  function render(): void {
    const mode = bannerMode(controller.getState())
    container.replaceChildren()
    if (!mode) return

    const text = el(
      'div',
      { className: 'min-w-0 flex-1' },
      el('p', { className: 'text-sm font-semibold text-fg', text: strings.title, attrs: { id: titleId } }),
    )
    if (mode === 'ios') {
      text.append(el('p', { className: 'text-sm text-fg-muted', text: strings.iosBody }))
      const icons = ['share', 'squarePlus', null] as const
      text.append(
        el(
          'ol',
          { className: 'mt-1 flex list-decimal flex-col gap-0.5 ps-5 text-sm text-fg-muted' },
          ...strings.iosSteps.map((step, index) => {
            const icon = icons[index]
            return el(
              'li',
              {},
              el(
                'span',
                { className: 'inline-flex items-center gap-1.5' },
                step,
                ...(icon ? [domIcon(icon, 'size-4 text-accent-text')] : []),
              ),
            )
          }),
        ),
      )
    } else if (mode === 'manual') {
      text.append(el('p', { className: 'text-sm text-fg-muted', text: strings.manualBody }))
    }
    // Where the browser installs at a tap, the title and the Install button say it all: one row, on
    // phones too, so the bar over the header stays low (docs/decisions/0068).
    const oneRow = mode === 'prompt'

    // Phones: text and close button on top, anything more under the text. Wider: one row.
    const row = el(
      'div',
      {
        className:
          'mx-auto grid w-full max-w-6xl gap-x-3 gap-y-2 px-4 sm:grid-cols-[auto_1fr_auto_auto] sm:items-center ' +
          `sm:px-6 ${oneRow ? 'grid-cols-[1fr_auto_auto] items-center py-2' : 'grid-cols-[1fr_auto] items-start py-3'}`,
      },
      el(
        'span',
        {
          className:
            'hidden size-10 shrink-0 items-center justify-center rounded-md bg-accent-soft text-accent-text sm:inline-flex',
        },
        domIcon('download', 'size-5'),
      ),
      text,
    )
    if (mode === 'prompt') {
      const install = el(
        'button',
        {
          className: `${BUTTON} h-10 justify-self-start bg-accent px-4 text-accent-fg shadow-xs hover:bg-accent-hover`,
          attrs: { type: 'button', 'data-install-action': 'install' },
        },
        domIcon('download'),
        strings.install,
      )
      install.addEventListener('click', () => void controller.promptInstall())
      row.append(install)
    }
    const dismiss = el(
      'button',
      {
        className:
          `${BUTTON} size-10 text-fg-muted hover:bg-surface-2 hover:text-fg ` +
          (oneRow ? '' : 'col-start-2 row-start-1 sm:col-start-auto sm:row-start-auto'),
        attrs: {
          type: 'button',
          'aria-label': strings.dismiss,
          title: strings.dismiss,
          'data-install-action': 'dismiss',
        },
      },
      domIcon('x', 'size-5'),
    )
    dismiss.addEventListener('click', () => controller.dismiss())
    row.append(dismiss)

    container.append(
      el(
        'section',
        {
          className: 'border-b border-border bg-surface text-fg shadow-sm',
          attrs: { 'aria-labelledby': titleId, 'data-install-banner': mode },
        },
        row,
      ),
    )
  }

  render()
  const unsubscribe = controller.subscribe(render)
  return {
    update(next) {
      strings = next
      render()
    },
    destroy() {
      unsubscribe()
      container.replaceChildren()
    },
  }
}

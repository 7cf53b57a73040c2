/**
 * The shell for pages that ship without React (the prerendered landing page): the staging and install
 * banners, mounted into the empty hosts the prerendered RootLayout left in the markup, the cookie
 * consent and the page view. The React app does the same through RootLayout and app/shell-services.ts.
 *
 *   import { startStaticPageShell } from '@/lib/static-page-shell'
 *   void startStaticPageShell()
 */
import { supportedLanguage, type Language } from '@circles/shared'
import { afterNextPaint } from '@/lib/after-paint'
import { trackPageView } from '@/lib/analytics'
import { trackBannersHeight } from '@/lib/banner-offset'
import { mountInstallBanner, type InstallBannerStrings } from '@/pwa'
import { initPwaInstall } from '@/pwa'
import { mountStagingBanner, type StagingBannerStrings } from '@/lib/staging-banner'
import type englishCommon from '@/locales/en/common.json'

type CommonTexts = typeof englishCommon

const COMMON: Record<Language, () => Promise<CommonTexts>> = {
  en: () => import('@/locales/en/common.json').then((module) => module.default),
  de: () => import('@/locales/de/common.json').then((module) => module.default),
}

export function installBannerStrings(common: CommonTexts): InstallBannerStrings {
  const install = common.install
  return {
    title: install.title,
    install: install.install,
    dismiss: install.dismiss,
    iosBody: install.iosBody,
    iosSteps: [install.iosSteps.share, install.iosSteps.add, install.iosSteps.confirm],
    manualBody: install.manualBody,
  }
}

export function stagingBannerStrings(common: CommonTexts): StagingBannerStrings {
  return { label: common.staging.label, message: common.staging.message }
}

function pageLanguage(): Language {
  return supportedLanguage(document.documentElement.lang) ?? 'en'
}

/** Starts everything; the page's language is its `<html lang>` (set by the prerender). */
export async function startStaticPageShell(language: Language = pageLanguage()): Promise<void> {
  // Before any await: Chrome fires beforeinstallprompt once, early.
  const install = initPwaInstall()
  // The page itself is prerendered: its first paint goes first, then the rest loads.
  await afterNextPaint()
  const consent = import('@/lib/consent').then(({ initConsent }) => initConsent(language))
  const common = await COMMON[language]()
  const stagingHost = document.querySelector<HTMLElement>('[data-staging-banner-host]')
  const installHost = document.querySelector<HTMLElement>('[data-install-banner-host]')
  const banners = document.querySelector<HTMLElement>('[data-shell-banners]')
  if (banners) trackBannersHeight(banners)
  if (stagingHost) mountStagingBanner(stagingHost, stagingBannerStrings(common))
  if (installHost) mountInstallBanner(installHost, installBannerStrings(common), install)
  await consent
  // Counted only with analytics consent, like the app's page views.
  trackPageView(location.pathname)
}

/**
 * The browser and system a User-Agent names, for a passkey's default name (ADR 0036) and a witness
 * key's label (docs/decisions/0064).
 */

// Order matters: Edge, Opera and Samsung Internet also say 'Chrome'; Chrome also says 'Safari'.
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:HeadlessChrome|Chrome|Chromium|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
]

// Order matters: Android says 'Linux', iPhones say 'like Mac OS X', ChromeOS says 'X11'.
const SYSTEMS: [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\biPad\b/, 'iPadOS'],
  [/\b(?:iPhone|iPod)\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
]

/** 'Chrome on Linux', 'Safari on iOS', 'Firefox', 'Android'; none when the header names neither. */
export function nameFromUserAgent(userAgent: string | undefined): string | undefined {
  if (!userAgent) return undefined
  const ua = userAgent.slice(0, 512)
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1]
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1]
  if (browser && system) return `${browser} on ${system}`
  return browser ?? system
}

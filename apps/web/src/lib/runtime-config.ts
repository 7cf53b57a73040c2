/**
 * Settings the server knows at run time (CONTACT_EMAIL, STAGING), injected into every HTML page it
 * serves as `<meta name="circles-config" content="{json}">`: no inline script (CSP), no extra request,
 * and prerendered pages get them too.
 */
export interface RuntimeConfig {
  contactEmail: string
  staging: boolean
}

const DEFAULTS: RuntimeConfig = { contactEmail: 'hello@circles.example', staging: false }

let cached: RuntimeConfig | null = null

export function runtimeConfig(): RuntimeConfig {
  if (cached) return cached
  if (typeof document === 'undefined') return DEFAULTS
  const raw = document.querySelector('meta[name="circles-config"]')?.getAttribute('content')
  try {
    const parsed = raw ? (JSON.parse(raw) as Partial<RuntimeConfig>) : {}
    cached = {
      contactEmail: typeof parsed.contactEmail === 'string' ? parsed.contactEmail : DEFAULTS.contactEmail,
      staging: parsed.staging === true,
    }
  } catch {
    cached = DEFAULTS
  }
  return cached
}

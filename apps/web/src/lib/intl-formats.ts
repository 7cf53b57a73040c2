/**
 * The app's date formatters, one per language and options. Making an Intl formatter is the costly part:
 * the first of a kind loads the locale's patterns (tens of milliseconds on a phone's CPU, inside a
 * screen's first render), while formatting with one made before costs microseconds.
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>()
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>()
/** The time zone dates are shown in: the device's, or on the server the person's (renderInTimeZone). */
let timeZone: string | undefined

export function dateFormat(
  language: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' },
): Intl.DateTimeFormat {
  const zoned = timeZone ? { ...options, timeZone } : options
  const key = `${language} ${JSON.stringify(zoned)}`
  let format = dateFormats.get(key)
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(language, zoned)))
  return format
}

/**
 * Server rendering only (entry-server.tsx): a screen rendered for a person shows its dates in the time
 * zone their device last reported (`TUser.timeZone`), as their browser will; undefined when done, or
 * for a zone this runtime does not know.
 */
export function renderInTimeZone(zone: string | null | undefined): void {
  timeZone = zone && knownTimeZone(zone) ? zone : undefined
}

function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone })
    return true
  } catch {
    return false
  }
}

export function relativeFormat(
  language: string,
  options: Intl.RelativeTimeFormatOptions = { numeric: 'auto' },
): Intl.RelativeTimeFormat {
  const key = `${language} ${JSON.stringify(options)}`
  let format = relativeFormats.get(key)
  if (!format) relativeFormats.set(key, (format = new Intl.RelativeTimeFormat(language, options)))
  return format
}

/**
 * Makes the formatters the signed-in screens use while the app waits for the screen's data, so the
 * first render does not pay for them: one per task, each some 30 ms on a phone's CPU.
 */
export function warmDateFormats(language: string): void {
  const makers = [
    () => dateFormat(language),
    () => dateFormat(language, { dateStyle: 'medium', timeStyle: 'short' }),
    () => relativeFormat(language),
  ]
  const next = () => {
    makers.shift()?.()
    if (makers.length > 0) setTimeout(next, 0)
  }
  setTimeout(next, 0)
}

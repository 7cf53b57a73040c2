/**
 * The app's date formatters, one per language and options. Making an Intl formatter is the costly part:
 * the first of a kind loads the locale's patterns (tens of milliseconds on a phone's CPU, inside a
 * screen's first render), while formatting with one made before costs microseconds.
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>()
const relativeFormats = new Map<string, Intl.RelativeTimeFormat>()

export function dateFormat(
  language: string,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' },
): Intl.DateTimeFormat {
  const key = `${language} ${JSON.stringify(options)}`
  let format = dateFormats.get(key)
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(language, options)))
  return format
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

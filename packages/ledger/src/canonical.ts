/**
 * RFC 8785 (JSON Canonicalization Scheme) for the values a block holds: objects, arrays, strings,
 * booleans, null and safe integers. Keys sorted by UTF-16 code units, no whitespace, strings escaped as
 * ECMAScript's JSON.stringify does (which RFC 8785 adopts). Anything else (a fraction, NaN, undefined, a
 * Date) is refused rather than encoded in a way another implementation might not repeat.
 *
 * Blocks are encoded by `blockBytes` (./block), written out for their fields; this generic encoder is
 * the reference its tests hold it to.
 */
export type CanonicalValue =
  string | number | boolean | null | readonly CanonicalValue[] | { readonly [key: string]: CanonicalValue }

export function canonicalJson(value: CanonicalValue): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value)
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TypeError(`not a safe integer: ${value}`)
    return JSON.stringify(value)
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const object = value as { readonly [key: string]: CanonicalValue }
    const keys = Object.keys(object).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${keys
      .map((key) => {
        const entry = object[key]
        if (entry === undefined) throw new TypeError(`undefined at ${key}`)
        return `${JSON.stringify(key)}:${canonicalJson(entry)}`
      })
      .join(',')}}`
  }
  throw new TypeError(`cannot canonicalize ${typeof value}`)
}

/** Every string NFC-normalised, keys included: the same text typed on two devices hashes the same. */
export function normalizeText<T extends CanonicalValue>(value: T): T {
  if (typeof value === 'string') return value.normalize('NFC') as T
  if (Array.isArray(value)) return value.map((entry) => normalizeText(entry)) as unknown as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, entry]) => [
        key.normalize('NFC'),
        normalizeText(entry as CanonicalValue),
      ]),
    ) as T
  }
  return value
}

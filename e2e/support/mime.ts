// A small MIME reader for the test mail sink: enough to read the subject and the text of the messages
// the server sends (multipart, quoted-printable, base64, RFC 2047 encoded words). No dependencies.

export interface MimePart {
  headers: Record<string, string>
  body: string
}

/** Splits a raw message (or part) into lower-cased, unfolded headers and the undecoded body. */
export function parsePart(raw: string): MimePart {
  const match = /\r?\n\r?\n/.exec(raw)
  const headerText = match ? raw.slice(0, match.index) : raw
  const body = match ? raw.slice(match.index + match[0].length) : ''
  const headers: Record<string, string> = {}
  for (const line of headerText.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon <= 0) continue
    const name = line.slice(0, colon).trim().toLowerCase()
    if (!(name in headers)) headers[name] = line.slice(colon + 1).trim()
  }
  return { headers, body }
}

/** Reads a parameter such as `boundary` or `charset` from a header value. */
export function headerParam(value: string | undefined, param: string): string | undefined {
  if (!value) return undefined
  const match = new RegExp(`(?:^|;)\\s*${param}\\s*=\\s*(?:"([^"]*)"|([^;\\s]*))`, 'i').exec(value)
  return match ? (match[1] ?? match[2]) : undefined
}

function bytesToText(bytes: Buffer, charset = 'utf-8'): string {
  try {
    return new TextDecoder(charset).decode(bytes)
  } catch {
    return bytes.toString('utf8')
  }
}

/** Quoted-printable (RFC 2045): drops soft line breaks, then turns =XX into bytes. */
export function decodeQuotedPrintable(text: string, charset = 'utf-8'): string {
  const joined = text.replace(/=\r?\n/g, '')
  const bytes: number[] = []
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? joined.slice(i + 1, i + 3) : ''
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16))
      i += 2
    } else {
      for (const byte of Buffer.from(joined[i] ?? '', 'utf8')) bytes.push(byte)
    }
  }
  return bytesToText(Buffer.from(bytes), charset)
}

/** RFC 2047 encoded words in headers, e.g. `=?UTF-8?Q?Verify_your_email?=`. */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(
      /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g,
      (_match, charset: string, encoding: string, text: string) =>
        encoding.toUpperCase() === 'B'
          ? bytesToText(Buffer.from(text, 'base64'), charset)
          : decodeQuotedPrintable(text.replace(/_/g, ' '), charset),
    )
}

function decodeBody(part: MimePart): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase()
  const charset = headerParam(part.headers['content-type'], 'charset') ?? 'utf-8'
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body, charset)
  if (encoding === 'base64') return bytesToText(Buffer.from(part.body.replace(/\s+/g, ''), 'base64'), charset)
  return part.body
}

export interface TextPart {
  contentType: string
  text: string
}

/** Every non-multipart part of a message, decoded to text (attachments included, as text). */
export function textParts(raw: string): TextPart[] {
  const part = parsePart(raw)
  const contentType = (part.headers['content-type'] ?? 'text/plain').toLowerCase()
  const boundary = headerParam(part.headers['content-type'], 'boundary')
  if (contentType.startsWith('multipart/') && boundary) {
    const delimiter = `--${boundary}`
    const sections = part.body.split(delimiter).slice(1)
    const parts: TextPart[] = []
    for (const section of sections) {
      if (section.startsWith('--')) break
      parts.push(...textParts(section.replace(/^[ \t]*\r?\n/, '')))
    }
    return parts
  }
  return [{ contentType: contentType.split(';')[0]?.trim() ?? 'text/plain', text: decodeBody(part) }]
}

/** The decoded subject of a raw message. */
export function subjectOf(raw: string): string {
  return decodeEncodedWords(parsePart(raw).headers['subject'] ?? '')
}

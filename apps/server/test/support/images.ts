import sharp from 'sharp'

/** A real picture of the given format and size (a colour gradient, so encoders have work to do). */
export async function pictureBytes(
  format: 'jpeg' | 'png' | 'webp',
  width = 640,
  height = 480,
  options: { gps?: boolean } = {},
): Promise<Buffer> {
  const base = sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } },
  }).composite([
    {
      input: Buffer.from(
        `<svg width="${width}" height="${height}"><rect x="10" y="10" width="${Math.floor(width / 2)}" height="${Math.floor(height / 2)}" fill="#2050c0"/></svg>`,
      ),
    },
  ])
  const withMeta = options.gps
    ? base.withExif({
        IFD0: { Make: 'Circles Test Camera', Model: 'GPS 1' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '52/1 31/1 12/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '13/1 24/1 36/1',
        },
      })
    : base
  return withMeta.toFormat(format).toBuffer()
}

/** A multipart/form-data body with one file part, as a browser's FormData sends it. */
export function multipart(
  field: string,
  file: { name: string; type: string; bytes: Buffer },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----circles${Math.random().toString(16).slice(2)}`
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${file.name}"\r\n` +
      `Content-Type: ${file.type}\r\n\r\n`,
  )
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  return {
    payload: Buffer.concat([head, file.bytes, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  }
}

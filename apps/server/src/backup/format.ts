/**
 * The backup file (docs/decisions/0040-backup-format.md): gzip'd JSON lines, the same from PGlite and
 * PostgreSQL. A header (format, versions, migration level, non-secret configuration), then each table
 * (a `table` line, then one `row` line per row; bytea as base64, every other value in PostgreSQL's
 * text form), then files (`uploads` pictures of the embedded mode, `secrets` generated into DATA_DIR),
 * then a trailer with the counts and a SHA-256 over every byte before it.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createGunzip } from 'node:zlib'

export const FORMAT = 'circles-backup'
export const FORMAT_VERSION = 1

/** A migration the database had applied: drizzle's `created_at` (the journal's `when`) and hash. */
export interface AppliedMigration {
  createdAt: number
  hash: string
}

export interface Header {
  kind: 'header'
  format: typeof FORMAT
  formatVersion: number
  appVersion: string
  createdAt: string
  database: 'pglite' | 'postgres'
  migrations: AppliedMigration[]
  /** For reference only; never a secret. */
  config: Record<string, unknown>
}

export interface TableLine {
  kind: 'table'
  name: string
  columns: string[]
  /** PostgreSQL's type of each column (`format_type`), for the cast on insert. */
  types: string[]
}

export interface RowLine {
  kind: 'row'
  values: (string | null)[]
}

export type FileArea = 'uploads' | 'secrets'

export interface FileLine {
  kind: 'file'
  area: FileArea
  name: string
  /** base64 */
  data: string
}

export interface Counts {
  tables: Record<string, number>
  uploads: number
  secrets: number
}

export interface Trailer {
  kind: 'trailer'
  counts: Counts
  sha256: string
}

export type Entry = Header | TableLine | RowLine | FileLine | Trailer

/** The secret files a data directory may hold (lib/secrets.ts), kept in the backup when present. */
// vapid-key (issue 27): the Web Push key; a restore without it would leave every device subscribed to a key gone.
export const SECRET_FILES = ['jwt-secret', 'ledger-signing-key', 'vapid-key'] as const

/** A file the restore refuses, with the reason for the operator. Nothing has been written. */
export class BackupFileError extends Error {}

/** A plain file name: no directory part, no hidden or temporary name. */
export const isPlainName = (name: string) =>
  /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) && !name.includes('..') && name.length <= 255

/** Writes entries as lines and keeps the digest and counts for the trailer. */
export class EntryWriter {
  private readonly hash = createHash('sha256')
  readonly counts: Counts = { tables: {}, uploads: 0, secrets: 0 }
  private table: string | undefined

  constructor(private readonly write: (chunk: Buffer) => Promise<void>) {}

  async entry(entry: Exclude<Entry, Trailer>) {
    if (entry.kind === 'table') {
      this.table = entry.name
      this.counts.tables[entry.name] = 0
    } else if (entry.kind === 'row') {
      this.counts.tables[this.table!]! += 1
    } else if (entry.kind === 'file') {
      this.counts[entry.area] += 1
    }
    const line = Buffer.from(`${JSON.stringify(entry)}\n`)
    this.hash.update(line)
    await this.write(line)
  }

  async finish() {
    const trailer: Trailer = { kind: 'trailer', counts: this.counts, sha256: this.hash.digest('hex') }
    await this.write(Buffer.from(`${JSON.stringify(trailer)}\n`))
    return trailer
  }
}

/** The uncompressed lines of a gzip'd file, each with its bytes; gzip's own errors become refusals. */
async function* lines(file: string): AsyncGenerator<Buffer> {
  try {
    const info = await stat(file)
    if (!info.isFile()) throw new BackupFileError(`${file} is not a file.`)
  } catch (error) {
    if (error instanceof BackupFileError) throw error
    throw new BackupFileError(`Cannot read the backup file ${file}: ${(error as Error).message}`)
  }
  const gunzip = createGunzip()
  const input = createReadStream(file)
  input.on('error', (error) => gunzip.destroy(error))
  input.pipe(gunzip)
  let rest = Buffer.alloc(0)
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      let data = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk
      let at = data.indexOf(0x0a)
      while (at >= 0) {
        yield data.subarray(0, at + 1)
        data = data.subarray(at + 1)
        at = data.indexOf(0x0a)
      }
      rest = Buffer.from(data)
    }
  } catch (error) {
    if (error instanceof BackupFileError) throw error
    throw new BackupFileError(
      `The backup file ${file} is damaged or truncated (${(error as Error).message}); nothing was restored.`,
    )
  } finally {
    input.destroy()
  }
  if (rest.length > 0)
    throw new BackupFileError(`The backup file ${file} is truncated; nothing was restored.`)
}

const isStringOrNull = (v: unknown) => v === null || typeof v === 'string'

/**
 * Every entry of a backup file, checked as it is read: the header first and supported, each line
 * well-formed, rows only under their table, and at the end the trailer's counts and digest over every
 * byte before it, with nothing after it. A caller that acts on entries must be able to undo what it
 * did until the generator has returned (the last check runs on the trailer).
 */
export async function* readBackup(file: string): AsyncGenerator<Exclude<Entry, Trailer>, Trailer> {
  const hash = createHash('sha256')
  const counts: Counts = { tables: {}, uploads: 0, secrets: 0 }
  const damaged = (why: string) =>
    new BackupFileError(`The backup file ${file} is damaged (${why}); nothing was restored.`)
  let header: Header | undefined
  let table: TableLine | undefined
  let trailer: Trailer | undefined
  for await (const line of lines(file)) {
    if (trailer) throw damaged('data after the trailer')
    let entry: Entry
    try {
      entry = JSON.parse(line.toString('utf8')) as Entry
    } catch {
      throw damaged('a line is not JSON')
    }
    if (!entry || typeof entry !== 'object') throw damaged('a line is not an entry')
    if (!header) {
      if (entry.kind !== 'header' || entry.format !== FORMAT) {
        throw new BackupFileError(`${file} is not a Circles backup file.`)
      }
      if (entry.formatVersion !== FORMAT_VERSION) {
        throw new BackupFileError(
          `The backup file ${file} has format version ${entry.formatVersion}; this release reads version ` +
            `${FORMAT_VERSION}. Restore it with the release that wrote it (${entry.appVersion}) or a newer one.`,
        )
      }
      if (!Array.isArray(entry.migrations)) throw damaged('the header has no migration level')
      header = entry
      hash.update(line)
      yield entry
      continue
    }
    switch (entry.kind) {
      case 'table':
        if (
          typeof entry.name !== 'string' ||
          !Array.isArray(entry.columns) ||
          !Array.isArray(entry.types) ||
          entry.columns.length !== entry.types.length ||
          entry.name in counts.tables
        ) {
          throw damaged('a malformed table line')
        }
        table = entry
        counts.tables[entry.name] = 0
        break
      case 'row':
        if (!table || !Array.isArray(entry.values) || entry.values.length !== table.columns.length) {
          throw damaged('a malformed row')
        }
        if (!entry.values.every(isStringOrNull)) throw damaged('a malformed row')
        counts.tables[table.name]! += 1
        break
      case 'file':
        if (
          (entry.area !== 'uploads' && entry.area !== 'secrets') ||
          typeof entry.name !== 'string' ||
          !isPlainName(entry.name) ||
          typeof entry.data !== 'string'
        ) {
          throw damaged('a malformed file entry')
        }
        if (entry.area === 'secrets' && !(SECRET_FILES as readonly string[]).includes(entry.name)) {
          throw damaged('an unknown secret file')
        }
        table = undefined
        counts[entry.area] += 1
        break
      case 'trailer':
        trailer = entry
        continue
      default:
        throw damaged('an unknown line')
    }
    hash.update(line)
    yield entry
  }
  if (!header) throw new BackupFileError(`${file} is empty or not a Circles backup file.`)
  if (!trailer)
    throw new BackupFileError(`The backup file ${file} is truncated (no trailer); nothing was restored.`)
  if (trailer.sha256 !== hash.digest('hex')) throw damaged('its SHA-256 does not match the trailer')
  if (JSON.stringify(sortCounts(trailer.counts)) !== JSON.stringify(sortCounts(counts))) {
    throw damaged('its counts do not match the trailer')
  }
  return trailer
}

function sortCounts(c: Counts) {
  return {
    tables: Object.fromEntries(Object.entries(c.tables ?? {}).sort(([a], [b]) => a.localeCompare(b))),
    uploads: c.uploads,
    secrets: c.secrets,
  }
}

/** Reads the whole file, checking everything; returns the header and trailer. Writes nothing. */
export async function validateBackup(file: string): Promise<{ header: Header; trailer: Trailer }> {
  const reader = readBackup(file)
  let header: Header | undefined
  for (;;) {
    const next = await reader.next()
    if (next.done) return { header: header!, trailer: next.value }
    if (next.value.kind === 'header') header = next.value
  }
}

import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { inArray, eq } from 'drizzle-orm'
import type { Db } from '../db/client'
import { storedFiles } from '../db/schema'

export interface StoredFile {
  bytes: Buffer
  contentType: string
}

/**
 * Where uploaded pictures live (docs/decisions/0015). Names are chosen by the caller (random, never
 * from the user); a file is written whole or not at all.
 */
export interface FileStore {
  readonly kind: 'disk' | 'database'
  put(name: string, file: StoredFile): Promise<void>
  get(name: string): Promise<StoredFile | null>
  remove(names: string[]): Promise<void>
}

const CONTENT_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
}

/** The embedded default: files under DATA_DIR/uploads, written to a temporary name and renamed. */
export function createDiskStore(dir: string): FileStore {
  const pathOf = (name: string) => {
    if (name !== path.basename(name)) throw new Error(`not a plain file name: ${name}`)
    return path.join(dir, name)
  }
  return {
    kind: 'disk',
    async put(name, file) {
      await mkdir(dir, { recursive: true })
      const temporary = path.join(dir, `.${name}.${randomBytes(6).toString('hex')}.part`)
      try {
        await writeFile(temporary, file.bytes, { flag: 'wx' })
        await rename(temporary, pathOf(name))
      } catch (error) {
        await rm(temporary, { force: true })
        throw error
      }
    },
    async get(name) {
      try {
        const bytes = await readFile(pathOf(name))
        return { bytes, contentType: CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream' }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
    },
    async remove(names) {
      await Promise.all(names.map((name) => rm(pathOf(name), { force: true })))
    },
  }
}

/** With PostgreSQL: the pictures in a table, so every instance serves what another one stored. */
export function createDatabaseStore(db: Db): FileStore {
  return {
    kind: 'database',
    async put(name, file) {
      await db
        .insert(storedFiles)
        .values({ name, contentType: file.contentType, size: file.bytes.length, bytes: file.bytes })
    },
    async get(name) {
      const [row] = await db
        .select({ bytes: storedFiles.bytes, contentType: storedFiles.contentType })
        .from(storedFiles)
        .where(eq(storedFiles.name, name))
        .limit(1)
      return row ? { bytes: Buffer.from(row.bytes), contentType: row.contentType } : null
    },
    async remove(names) {
      if (names.length > 0) await db.delete(storedFiles).where(inArray(storedFiles.name, names))
    },
  }
}

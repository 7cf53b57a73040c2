import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * A secret given by the environment wins; otherwise one is generated on first start and kept in
 * DATA_DIR (mode 0600), so sessions survive restarts without any configuration.
 */
export async function loadOrCreateSecret(dataDir: string, fileName: string, given?: string): Promise<string> {
  if (given) return given
  const file = path.join(dataDir, fileName)
  try {
    const existing = (await readFile(file, 'utf8')).trim()
    if (existing.length >= 32) return existing
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await mkdir(dataDir, { recursive: true })
  const secret = randomBytes(48).toString('base64url')
  await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' }).catch(async (error) => {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  })
  return (await readFile(file, 'utf8')).trim()
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { betterSqlite3Driver } from '../../adapters/sqlite/driver-better-sqlite3.ts'
import { createSqliteStorage } from '../../adapters/sqlite/index.ts'
import type { ConsoleStoragePort } from '../../core/ports/storage.ts'

/** A fresh directory under the OS temp dir; `remove()` deletes it with everything in it. */
export function tempDir(prefix = 'clubcred-test-'): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix))
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) }
}

/** SQLite storage on better-sqlite3 over `file`. */
export function openSqliteFile(file: string): ConsoleStoragePort {
  return createSqliteStorage({ driver: betterSqlite3Driver(file) })
}

/** SQLite storage on a fresh file in a fresh temp dir; `close` closes it and removes the dir. */
export async function openTempSqlite(): Promise<{ storage: ConsoleStoragePort; file: string; close(): Promise<void> }> {
  const dir = tempDir()
  const file = join(dir.path, 'clubcred.db')
  const storage = openSqliteFile(file)
  return {
    storage,
    file,
    async close() {
      await storage.close()
      dir.remove()
    },
  }
}

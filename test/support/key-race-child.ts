/**
 * A child process for the cross-process key race: opens the SQLite file of argv[2], waits until the
 * wall-clock instant of argv[3] (so that all children start together), asks for the active key of
 * `platform`, and prints its kid.
 */
import { createKeyStore } from '../../core/keys/create-key-store.ts'
import { openSqliteFile } from './temp-sqlite.ts'

const [file, startAt] = process.argv.slice(2)
const storage = openSqliteFile(file!)
const keys = createKeyStore({ storage, masterKey: new Uint8Array(32).fill(7) })
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())))
const key = await keys.activeKey('platform')
process.stdout.write(key.kid + '\n')
await storage.close()

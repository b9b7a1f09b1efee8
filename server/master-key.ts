import { randomBytes, randomUUID } from 'node:crypto'
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fromBase64Url, toBase64Url } from '../core/crypto/base64url.ts'

/**
 * The master key that seals private keys: from `CLUBCRED_MASTER_KEY` (64 hex digits or 43 base64url
 * characters), else from `<dataDir>/master.key`, created (mode 0600) on first use. The key is written
 * to a temporary file and then hard-linked into place, which fails when the name exists: a CLI and a
 * server starting together agree on one key, and no process ever reads a created but not yet written
 * (empty) key file, also when its creator crashed half-way.
 */
export function loadMasterKey(dataDir: string, fromEnv: string | undefined): Uint8Array {
  if (fromEnv) return parseMasterKey(fromEnv, 'CLUBCRED_MASTER_KEY')
  const file = join(dataDir, 'master.key')
  const temporary = join(dataDir, `.master.key.${randomUUID()}.tmp`)
  try {
    writeFileSync(temporary, toBase64Url(randomBytes(32)) + '\n', { flag: 'wx', mode: 0o600 })
    linkSync(temporary, file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  } finally {
    rmSync(temporary, { force: true })
  }
  return parseMasterKey(readFileSync(file, 'utf8').trim(), file)
}

/**
 * The master key as `loadMasterKey` finds it, but never created: `null` when `CLUBCRED_MASTER_KEY` is
 * unset and the data dir has no key file. For `restore` and `verify-backup` (docs/backup.md), where a new
 * key would open nothing.
 */
export function readMasterKey(dataDir: string, fromEnv: string | undefined): Uint8Array | null {
  if (fromEnv) return parseMasterKey(fromEnv, 'CLUBCRED_MASTER_KEY')
  const file = join(dataDir, 'master.key')
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  return parseMasterKey(text.trim(), file)
}

/** The two ways to write the master key, as the messages name them. */
export const MASTER_KEY_FORMAT = '64 hex digits or 43 base64url characters'
const HEX = /^[0-9a-f]{64}$/i
const BASE64URL = /^[A-Za-z0-9_-]{43}$/

/** Whether `text` is a master key in one of its two forms (the configuration check at start). */
export function isMasterKeyText(text: string): boolean {
  return HEX.test(text) || BASE64URL.test(text)
}

function parseMasterKey(text: string, source: string): Uint8Array {
  const bytes = HEX.test(text) ? Uint8Array.from(text.match(/../g)!, (pair) => parseInt(pair, 16)) : BASE64URL.test(text) ? fromBase64Url(text) : null
  if (!bytes || bytes.length !== 32) throw new TypeError(`${source}: the master key must be 32 bytes, as ${MASTER_KEY_FORMAT}`)
  return bytes
}

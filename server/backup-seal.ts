import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto'
import { appendFileSync, closeSync, fstatSync, openSync, readSync, writeSync } from 'node:fs'
import { BackupRefused, BackupRejected, RestoreKeyMismatch } from './backup-errors.ts'

/**
 * The seal of a backup file (docs/backup.md § The seal): HMAC-SHA-256 over the exact bytes of the SQLite
 * database, appended to it as one line, so that a backup stays one file that SQLite still opens (SQLite
 * reads the database's size from its header and ignores bytes after the last page). The MAC key comes
 * from the master key through HKDF with a label of its own, never the master key itself (that one seals
 * the private keys with AES-GCM): without the master key a changed file cannot be sealed again.
 *
 * The line also names the sealing key by an 8-byte id from another HKDF label, so that a backup sealed
 * with another master key is told apart from a changed one; the id says nothing about the key.
 */

const FORMAT = 'v1'
const TRAILER = /\nclubcred backup seal (v\d+) ([A-Za-z0-9_-]{11}) ([A-Za-z0-9_-]{43})\n$/
/** Longer than any trailer: where its search starts from the end. */
const TAIL_BYTES = 128
const CHUNK_BYTES = 1 << 20
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1')
/** Where a SQLite file's header keeps `PRAGMA user_version`, clubcred's schema version (4 bytes, big-endian). */
const USER_VERSION_OFFSET = 60

/**
 * The first schema version made after clubcred began sealing every backup: the last clubcred that wrote
 * backups without a seal made schema 12 at most (sealing came in with it, before migration 0013). So no
 * genuine unsealed backup has this schema or a later one.
 */
export const FIRST_SEALED_ONLY_SCHEMA = 13

/** The MAC key and its id for one master key. */
export function sealKeys(masterKey: Uint8Array): { macKey: Buffer; keyId: string } {
  const derive = (label: string, length: number) => Buffer.from(hkdfSync('sha256', masterKey, new Uint8Array(0), `clubcred backup seal ${label}`, length))
  return { macKey: derive(`${FORMAT} hmac-sha256`, 32), keyId: derive(`${FORMAT} key id`, 8).toString('base64url') }
}

function trailer(masterKey: Uint8Array, mac: Buffer): string {
  return `\nclubcred backup seal ${FORMAT} ${sealKeys(masterKey).keyId} ${mac.toString('base64url')}\n`
}

/** Seals `file` in place: its bytes as they are now get the seal line appended. The caller syncs. */
export function sealFile(file: string, masterKey: Uint8Array): void {
  const hmac = createHmac('sha256', sealKeys(masterKey).macKey)
  const fd = openSync(file, 'r')
  try {
    const size = fstatSync(fd).size
    copyBytes(fd, size, null, (chunk) => hmac.update(chunk))
  } finally {
    closeSync(fd)
  }
  appendFileSync(file, trailer(masterKey, hmac.digest()))
}

/**
 * Copies the database of the sealed `file` into `into` (created here, mode 0600; it must not exist),
 * checking the seal over exactly the bytes it writes, so that what is opened afterwards is what was
 * checked, also if `file` changes meanwhile. Throws `BackupRejected` for a file without a seal (unless
 * `allowUnsealed` and its schema is older than sealing: then the whole file is copied) or whose bytes are
 * not those sealed, and
 * `RestoreKeyMismatch` for a seal made with another master key. Answers whether the file was sealed.
 */
export function copySealed(file: string, into: string, masterKey: Uint8Array, { allowUnsealed = false } = {}): { sealed: boolean } {
  const fd = openSync(file, 'r')
  try {
    const size = fstatSync(fd).size
    const head = Buffer.alloc(Math.min(USER_VERSION_OFFSET + 4, size))
    readExactly(fd, head, 0)
    if (head.length < USER_VERSION_OFFSET + 4 || !head.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) {
      throw new BackupRefused(`${file} is not a clubcred database: not a SQLite file`)
    }
    const tail = Buffer.alloc(Math.min(TAIL_BYTES, size))
    readExactly(fd, tail, size - tail.length)
    const match = TRAILER.exec(tail.toString('latin1'))
    if (!match) {
      refuseCutSeal(file, head.readUInt32BE(USER_VERSION_OFFSET))
      if (!allowUnsealed) {
        throw new BackupRejected(
          'backup-unsealed',
          `${file} has no seal: a backup made before clubcred sealed backups, or a file rewritten since (the seal is its last line), cannot be checked for changes. If the file never left your hands, give --unsealed (the schema and the keys are still checked); then take a new backup, which is sealed`,
        )
      }
      writeCopy(fd, size, into, null)
      return { sealed: false }
    }
    const [line, format, keyId, mac] = match as unknown as [string, string, string, string]
    if (format !== FORMAT)
      throw new BackupRejected(
        'backup-unsealed',
        `${file} has a seal of format ${format}, newer than this clubcred knows (${FORMAT}): use the clubcred that made it`,
      )
    if (keyId !== sealKeys(masterKey).keyId) {
      throw new RestoreKeyMismatch(
        `${file} was sealed with another master key: the master key given (CLUBCRED_MASTER_KEY or master.key) is not the key of the data dir that made the backup`,
      )
    }
    const hmac = createHmac('sha256', sealKeys(masterKey).macKey)
    writeCopy(fd, size - Buffer.byteLength(line, 'latin1'), into, hmac)
    if (!timingSafeEqual(hmac.digest(), Buffer.from(mac, 'base64url'))) {
      throw new BackupRejected('backup-tampered', `${file} was changed after backup sealed it: its seal does not match its bytes`)
    }
    return { sealed: true }
  } finally {
    closeSync(fd)
  }
}

/**
 * Refuses a file without a seal whose schema came after sealing did (`FIRST_SEALED_ONLY_SCHEMA`), also
 * under `--unsealed`: clubcred wrote no such backup, so its seal was cut off, and what it hides is
 * anything a SQLite tool can do to the data. The refusal names that risk and offers no way round it.
 */
function refuseCutSeal(file: string, schemaVersion: number): void {
  if (schemaVersion < FIRST_SEALED_ONLY_SCHEMA) return
  throw new BackupRejected(
    'backup-unsealed',
    `${file} has no seal, yet its schema (version ${schemaVersion}) is one that clubcred only ever wrote into sealed backups (from version ${FIRST_SEALED_ONLY_SCHEMA}): its seal was cut off, and its data may have been changed since (an API client added, a revocation cleared, a key replaced) with nothing left to tell. It is not used. Restore a backup that still has its seal, or take a new one from the data dir`,
    { schemaVersion },
  )
}

function writeCopy(fd: number, length: number, into: string, hmac: ReturnType<typeof createHmac> | null): void {
  const out = openSync(into, 'wx', 0o600)
  try {
    copyBytes(fd, length, out, (chunk) => hmac?.update(chunk))
  } finally {
    closeSync(out)
  }
}

/** Reads the first `length` bytes of `fd` in chunks, handing each to `each` and writing it to `out`. */
function copyBytes(fd: number, length: number, out: number | null, each: (chunk: Buffer) => void): void {
  const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, Math.max(length, 1)))
  for (let position = 0; position < length;) {
    const chunk = buffer.subarray(0, Math.min(buffer.length, length - position))
    readExactly(fd, chunk, position)
    each(chunk)
    if (out !== null) for (let written = 0; written < chunk.length;) written += writeSync(out, chunk, written)
    position += chunk.length
  }
}

/** Fills `buffer` from `position`; a file that shrank meanwhile is an error, never a short copy. */
function readExactly(fd: number, buffer: Buffer, position: number): void {
  for (let done = 0; done < buffer.length;) {
    const read = readSync(fd, buffer, done, buffer.length - done, position + done)
    if (read === 0) throw new BackupRejected('backup-tampered', 'the backup file got shorter while it was read')
    done += read
  }
}

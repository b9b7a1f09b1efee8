import { createSealer } from '../crypto/seal.ts'
import type { KeyRecordStore } from '../ports/storage.ts'
import type { StoredKey } from './stored-key.ts'

/** What a master key makes of sealed keys: the kids it opens and the kids it does not. */
export interface OpenedKeys {
  opened: string[]
  failed: string[]
}

/**
 * Opens each sealed private key with the master key and checks that what comes out is the private half
 * of the stored public key: a wrong master key fails AES-GCM's tag check, and a sealed value moved onto
 * another key's row fails the kid bound into it (core/crypto/seal.ts). Nothing opened is kept.
 */
export async function openSealedKeys(keys: StoredKey[], masterKey: Uint8Array): Promise<OpenedKeys> {
  const sealer = await createSealer(masterKey)
  const result: OpenedKeys = { opened: [], failed: [] }
  for (const key of keys) {
    let matches: boolean
    try {
      const jwk = JSON.parse(await sealer.open(key.sealedPrivateKey, key.kid)) as Record<string, unknown>
      matches = typeof jwk.d === 'string' && jwk.x === key.publicJwk.x && jwk.y === key.publicJwk.y && jwk.crv === key.publicJwk.crv
    } catch {
      matches = false
    }
    ;(matches ? result.opened : result.failed).push(key.kid)
  }
  return result
}

/** The storage's keys were sealed with another master key than the one given. */
export class MasterKeyMismatch extends Error {
  override name = 'MasterKeyMismatch'
}

/**
 * The start-up check (docs/backup.md § A wrong master key): opens the active key of every owner (the
 * platform and each club). Without it a server given the wrong master key (a restore without the right
 * key file, a mistyped `CLUBCRED_MASTER_KEY`) would start, serve its DID documents, and then fail every
 * token request and every signing job; worse, an owner without an active key would get a new key sealed
 * with the wrong master key, mixing two keys in one storage. Throws `MasterKeyMismatch` naming the
 * owners (never a key).
 */
export async function checkMasterKey(keys: Pick<KeyRecordStore, 'listActive'>, masterKey: Uint8Array): Promise<void> {
  const active = await keys.listActive()
  const { failed } = await openSealedKeys(active, masterKey)
  if (failed.length === 0) return
  const owners = active.filter((key) => failed.includes(key.kid)).map((key) => key.owner)
  const named = owners.slice(0, 3).join(', ') + (owners.length > 3 ? ` and ${owners.length - 3} more` : '')
  throw new MasterKeyMismatch(
    `the master key does not open the stored signing keys (${failed.length} of ${active.length}: ${named}): they were sealed with another master key`,
  )
}

import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose'
import { StorageConflict } from '../errors.ts'
import { toBase64Url } from '../crypto/base64url.ts'
import { createSealer, type Sealer } from '../crypto/seal.ts'
import { systemClock, type Clock } from '../ports/clock.ts'
import type { KeyStore, PublicKeyRecord, SigningKey } from '../ports/key-store.ts'
import { webCryptoRandom, type RandomSource } from '../ports/random.ts'
import { Lru } from '../util/lru.ts'
import type { StoragePort, UnitOptions } from '../ports/storage.ts'
import type { StoredKey } from './stored-key.ts'
import { clubOfKeyOwner, keyAlgorithmOfOwner } from '../did-documents/did.ts'
import type { KeyAlgorithm } from './key-algorithm.ts'

/** A club's key is made in a unit of the club; the instance's own keys in a unit of the whole database. */
const unitOf = (owner: string): UnitOptions => {
  const club = clubOfKeyOwner(owner)
  return club === null ? {} : { club }
}

export interface KeyStoreOptions {
  storage: StoragePort
  /** 32 bytes that seal every private key at rest (`CLUBCRED_MASTER_KEY` on the server). */
  masterKey: Uint8Array
  clock?: Clock
  random?: RandomSource
  /** Keys kept unsealed, and public keys kept imported, least recently used dropped first. */
  cacheSize?: number
}

/**
 * The default key store: P-256 or Ed25519 keys (by owner: core/did-documents/did.ts) in the storage
 * port, private parts sealed with the master key.
 * Decrypted keys are cached by kid (key material never changes), the most recently used `cacheSize`; the active kid is read from storage
 * on every call, so a `key rotate` from the CLI takes effect in a running server at once.
 */
export function createKeyStore({ storage, masterKey, clock = systemClock, random = webCryptoRandom, cacheSize = 1000 }: KeyStoreOptions): KeyStore {
  if (masterKey.length !== 32) throw new TypeError('createKeyStore: masterKey must be 32 bytes')
  let sealer: Promise<Sealer> | undefined
  const getSealer = () => (sealer ??= createSealer(masterKey))
  const unsealed = new Lru<string, Promise<PrivateMaterial>>(cacheSize)
  const verificationKeys = new Lru<string, Promise<CryptoKey>>(cacheSize)

  async function unseal(stored: StoredKey): Promise<SigningKey> {
    let material = unsealed.get(stored.kid)
    if (!material) {
      material = (async () => {
        const privateJwk = JSON.parse(await (await getSealer()).open(stored.sealedPrivateKey, stored.kid)) as JWK
        const privateKey = await importKey(privateJwk, stored.alg)
        return { privateKey, privateJwk }
      })()
      material.catch(() => unsealed.delete(stored.kid))
      unsealed.set(stored.kid, material)
    }
    return { ...toPublicRecord(stored), ...(await material) }
  }

  async function createKey(owner: string, replaceActive: boolean): Promise<SigningKey> {
    // Generate and seal before the transaction: no slow crypto while holding the write lock.
    const alg = keyAlgorithmOfOwner(owner)
    const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true })
    const kid = toBase64Url(random.bytes(12))
    const stored: StoredKey = {
      kid,
      owner,
      alg,
      publicJwk: publicMembers(await exportJWK(publicKey)),
      sealedPrivateKey: await (await getSealer()).seal(JSON.stringify(await exportJWK(privateKey)), kid),
      active: true,
      createdAt: clock.now(),
    }
    const winner = await storage.transaction(async (tx) => {
      if (replaceActive) {
        await tx.keys.deactivateAll(owner)
      } else {
        const existing = await tx.keys.findActive(owner)
        if (existing) return existing
      }
      await tx.keys.insert(stored)
      return stored
    }, unitOf(owner))
    return unseal(winner)
  }

  return {
    async activeKey(owner) {
      const active = await storage.keys.findActive(owner)
      if (active) return unseal(active)
      try {
        return await createKey(owner, false)
      } catch (error) {
        // Another process created the owner's first key between our read and our write.
        if (!(error instanceof StorageConflict)) throw error
        const winner = await storage.keys.findActive(owner)
        if (!winner) throw error
        return unseal(winner)
      }
    },
    async publicKeys(owner) {
      return (await storage.keys.listByOwner(owner)).map(toPublicRecord)
    },
    async findPublicKey(owner, kid) {
      const stored = await storage.keys.findByKid(kid)
      return stored && stored.owner === owner ? toPublicRecord(stored) : null
    },
    async verificationKey(owner, kid) {
      const cacheKey = `${owner} ${kid}`
      let key = verificationKeys.get(cacheKey)
      if (!key) {
        const stored = await storage.keys.findByKid(kid)
        if (!stored || stored.owner !== owner) return null
        key = importKey(stored.publicJwk, stored.alg)
        verificationKeys.set(cacheKey, key)
      }
      return key
    },
    rotate(owner) {
      return createKey(owner, true)
    },
  }
}

/** A P-256 or Ed25519 JWK as a WebCrypto key (`importJWK` answers bytes for symmetric keys, which ours never are). */
async function importKey(jwk: JWK, alg: KeyAlgorithm): Promise<CryptoKey> {
  const key = await importJWK(jwk, alg)
  if (key instanceof Uint8Array) throw new TypeError('not an asymmetric key')
  return key
}

/** The members of a public JWK that make the key (RFC 7638's required members), nothing the export adds. */
function publicMembers({ kty, crv, x, y }: JWK): JWK {
  return kty === 'OKP' ? { kty, crv, x } : { kty, crv, x, y }
}

interface PrivateMaterial {
  privateKey: CryptoKey
  privateJwk: JWK
}

function toPublicRecord({ kid, owner, alg, publicJwk, active, createdAt }: StoredKey): PublicKeyRecord {
  return { kid, owner, alg, publicJwk, active, createdAt }
}

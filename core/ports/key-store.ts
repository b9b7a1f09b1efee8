import type { JWK } from 'jose'
import type { KeyAlgorithm } from '../keys/key-algorithm.ts'

/** The public half of a signing key, as the DID document and the token verifier see it. */
export interface PublicKeyRecord {
  /** Key id, unique across all owners. */
  kid: string
  owner: string
  alg: KeyAlgorithm
  publicJwk: JWK
  /** Whether this is the owner's current signing key. Rotated keys stay listed, inactive. */
  active: boolean
  /** Milliseconds since the epoch. */
  createdAt: number
}

/** A usable signing key: the public record plus the decrypted private part. */
export interface SigningKey extends PublicKeyRecord {
  privateKey: CryptoKey
  /** The private JWK, for signers that import it into a faster runtime-specific key object. */
  privateJwk: JWK
}

/**
 * Signing keys by owner: `platform` signs access tokens, `club:<domain>` signs a club's VC-JWTs (ES256),
 * `club-ed25519:<domain>` its Data Integrity proofs (Ed25519). An owner's keys all have one algorithm,
 * the one its name gives (core/did-documents/did.ts). Private parts are encrypted at rest by the
 * implementation; callers only ever see them decrypted.
 */
export interface KeyStore {
  /**
   * The owner's active key. MUST create one on first need. Concurrent first calls, also from other
   * processes on the same storage, MUST all return the same key.
   */
  activeKey(owner: string): Promise<SigningKey>
  /** Every key of the owner, oldest first, rotated ones included. `[]` when the owner has none. */
  publicKeys(owner: string): Promise<PublicKeyRecord[]>
  /** The key with this id if it belongs to `owner`, else `null`. */
  findPublicKey(owner: string, kid: string): Promise<PublicKeyRecord | null>
  /**
   * The key with this id as a WebCrypto verification key if it belongs to `owner`, else `null`.
   * Implementations SHOULD cache: verification is a hot path and key material never changes.
   */
  verificationKey(owner: string, kid: string): Promise<CryptoKey | null>
  /** Creates a new active key for the owner; the previous one stays, inactive. Returns the new key. */
  rotate(owner: string): Promise<SigningKey>
}

import { sha256 } from '@noble/hashes/sha2.js'
import { bytesToHex } from '@noble/hashes/utils.js'
import { toBase64Url } from '../crypto/base64url.ts'

const encoder = new TextEncoder()

/** An OB 3.0 IdentityObject for an e-mail address, never the plain address (docs/decisions/0014-signed-credential.md). */
export interface IdentityObject {
  type: 'IdentityObject'
  identityHash: string
  identityType: 'emailAddress'
  hashed: true
  salt: string
}

/**
 * `identityHash = "sha256$" + hex(sha256(email + salt))` with a fresh salt per credential, so that one
 * person's credentials cannot be linked by their hash. The address is lower-cased first: e-mail
 * addresses are compared case-insensitively, and a verifier hashing what the holder typed must match.
 * Synchronous (noble): a WebCrypto digest per credential costs a thread-pool round trip on the hot path.
 */
export function hashedEmailIdentity(email: string, salt: Uint8Array): IdentityObject {
  const saltText = toBase64Url(salt)
  const identityHash = `sha256$${bytesToHex(sha256(encoder.encode(email.trim().toLowerCase() + saltText)))}`
  return { type: 'IdentityObject', identityHash, identityType: 'emailAddress', hashed: true, salt: saltText }
}

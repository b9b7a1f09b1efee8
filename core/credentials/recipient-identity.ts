import { toBase64Url } from '../crypto/base64url.ts'

const encoder = new TextEncoder()

/** An OB 3.0 IdentityObject for an e-mail address, never the plain address (DESIGN §6). */
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
 */
export async function hashedEmailIdentity(email: string, salt: Uint8Array): Promise<IdentityObject> {
  const saltText = toBase64Url(salt)
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(email.trim().toLowerCase() + saltText)))
  let hex = ''
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0')
  return { type: 'IdentityObject', identityHash: `sha256$${hex}`, identityType: 'emailAddress', hashed: true, salt: saltText }
}

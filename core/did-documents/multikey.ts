import type { JWK } from 'jose'
import { fromBase64Url } from '../crypto/base64url.ts'
import { toBase58btc } from '../crypto/base58btc.ts'

/** The multicodec prefix of an Ed25519 public key (`ed25519-pub`, 0xed as an unsigned varint). */
const ED25519_PUB = [0xed, 0x01]

/**
 * The `publicKeyMultibase` of an Ed25519 public JWK (Controlled Identifiers 1.0, Multikey): `z`
 * (base58btc) over the multicodec prefix and the 32 key bytes, so every such key starts `z6Mk`.
 */
export function ed25519PublicKeyMultibase(jwk: JWK): string {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') throw new TypeError('not an Ed25519 public JWK')
  const key = fromBase64Url(jwk.x)
  if (key.length !== 32) throw new TypeError('an Ed25519 public key is 32 bytes')
  return `z${toBase58btc(Uint8Array.from([...ED25519_PUB, ...key]))}`
}

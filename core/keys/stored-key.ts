import type { JWK } from 'jose'

/** A key as stored: the private JWK sealed (encrypted) by the key store, opaque to storage. */
export interface StoredKey {
  kid: string
  owner: string
  alg: 'ES256'
  publicJwk: JWK
  sealedPrivateKey: string
  active: boolean
  createdAt: number
}

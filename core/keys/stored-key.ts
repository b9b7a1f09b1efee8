import type { JWK } from 'jose'
import type { KeyAlgorithm } from './key-algorithm.ts'

/** A key as stored: the private JWK sealed (encrypted) by the key store, opaque to storage. */
export interface StoredKey {
  kid: string
  owner: string
  alg: KeyAlgorithm
  publicJwk: JWK
  sealedPrivateKey: string
  active: boolean
  createdAt: number
}

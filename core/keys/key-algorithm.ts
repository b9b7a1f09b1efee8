/**
 * The signature algorithms of stored keys (docs/data-integrity.md § Keys): `ES256` (P-256) signs the
 * VC-JWTs, the status lists and the access tokens; `Ed25519` signs the Data Integrity proofs
 * (`eddsa-rdfc-2022`). The names are JOSE's (RFC 9864 names Ed25519 by its curve), as stored in the
 * keys table's `alg` column.
 */
export const KEY_ALGORITHMS = ['ES256', 'Ed25519'] as const
export type KeyAlgorithm = (typeof KEY_ALGORITHMS)[number]

/** A stored `alg` value as a KeyAlgorithm; anything else is a corrupt row, never a key to use. */
export function keyAlgorithm(value: string): KeyAlgorithm {
  const known = KEY_ALGORITHMS.find((alg) => alg === value)
  if (!known) throw new TypeError(`a stored key has the unknown algorithm ${JSON.stringify(value)}`)
  return known
}

import { decodeJwt } from 'jose'
import { NO_PROOF, type CredentialRecord } from '../issuances/issuance.ts'
import type { CredentialObject } from './sign-data-integrity.ts'

/**
 * A stored credential's JSON-LD form (docs/data-integrity.md § The JWT and the proof):
 * - `ready`: the credential of the JWT (its `vc`) with the stored Data Integrity proof;
 * - `pending`: the proof is still to be made (it follows the JWT, in the background);
 * - `none`: the credential was signed before clubcred made proofs, and has its JWT only.
 */
export type JsonLdForm = { state: 'ready'; credential: CredentialObject } | { state: 'pending' } | { state: 'none' }

/** The JSON-LD form of `record`, assembled from its JWT and its proof: never signed again on read. */
export function jsonLdFormOf(record: CredentialRecord): JsonLdForm {
  if (record.proof === null) return { state: 'pending' }
  if (record.proof === NO_PROOF) return { state: 'none' }
  return { state: 'ready', credential: { ...credentialOfJwt(record.jwt), proof: JSON.parse(record.proof) as unknown } }
}

/**
 * The `vc` claim of a credential's JWT as clubcred signed it. The JWT is the stored one, so it is read,
 * not verified: its signature was made by this issuer, and the JSON-LD form carries its own proof.
 */
export function credentialOfJwt(jwt: string): CredentialObject {
  const { vc } = decodeJwt(jwt)
  if (!vc || typeof vc !== 'object') throw new TypeError('the credential JWT has no vc claim')
  return vc as CredentialObject
}

import * as v from 'valibot'
import { decodeJwt } from 'jose'
import type { CredentialRecord } from './credential-record.ts'
import type { CredentialObject } from './sign-data-integrity.ts'

/**
 * A stored credential's JSON-LD form (docs/data-integrity.md § The JWT and the proof):
 * - `ready`: the credential of the JWT (its `vc`) with the stored Data Integrity proof;
 * - `pending`: the proof is still to be made (it follows the JWT, in the background);
 * - `none`: the credential was signed before clubcred made proofs, and has its JWT only.
 */
export type JsonLdForm = { state: 'ready'; credential: CredentialObject } | { state: 'pending' } | { state: 'none' }

/** The Data Integrity proof of the JSON-LD form (docs/data-integrity.md): `eddsa-rdfc-2022` by the club's Ed25519 key. */
export const dataIntegrityProofSchema = v.object({
  type: v.literal('DataIntegrityProof'),
  created: v.string(),
  verificationMethod: v.string(),
  cryptosuite: v.literal('eddsa-rdfc-2022'),
  proofPurpose: v.literal('assertionMethod'),
  proofValue: v.string(),
})

/**
 * The JSON-LD form as served: the `vc` of the JWT (docs/api.md §2.8 `payload.vc`), member for member, with
 * its `proof`: an array of one, as OB 3.0's JSON Schema has `proof` (docs/data-integrity.md § The JWT and the proof).
 */
export const jsonLdCredentialSchema = v.objectWithRest(
  { '@context': v.array(v.unknown()), id: v.string(), type: v.array(v.string()), proof: v.tuple([dataIntegrityProofSchema]) },
  v.unknown(),
)

/** A stored credential as its two presentations: the signed JWT, and the JSON-LD form in its state. */
export interface CredentialForms {
  jwt: string
  jsonLd: JsonLdForm
}

/** The JSON-LD form of `record`, assembled from its JWT and its proof: never signed again on read. */
export function jsonLdFormOf(record: CredentialRecord): JsonLdForm {
  const { proof } = record
  if (proof.state !== 'made') return { state: proof.state }
  // An array: 1EdTech's OB 3.0 JSON Schema types `proof` so, and Data Integrity verifiers take either.
  return { state: 'ready', credential: { ...credentialOfJwt(record.jwt), proof: [JSON.parse(proof.json) as unknown] } }
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

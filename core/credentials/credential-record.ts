/** The signed credential of an issuance: the JWT is the only record that never changes. */
export interface CredentialRecord {
  /** UUID; `jti` and `vc.id` are `urn:uuid:<id>`. */
  id: string
  issuanceId: number
  club: string
  jwt: string
  issuedAt: number
  /** `validUntil` (ms), or `null`. */
  validUntil: number | null
  statusListId: number
  statusListIndex: number
  /** The credential's Data Integrity proof, in one of its three states (docs/data-integrity.md § Storage). */
  proof: CredentialProof
}

/**
 * Where a credential's Data Integrity proof stands:
 * - `pending`: still to be made, by the proof round (`CredentialStore.claimUnproven`);
 * - `none`: never to be made: the credential was signed before clubcred made proofs, and has no JSON-LD form;
 * - `made`: the proof, as JSON text; once made it never changes, as the credential does not.
 *
 * Storage keeps the three in one nullable text column (NULL, `''` and the JSON); each adapter maps them
 * in its row reader and writer (adapters/shared/rows.ts).
 */
export type CredentialProof = { state: 'pending' } | { state: 'none' } | { state: 'made'; json: string }

/** A proof no longer to be made: what the proof round stores (`CredentialStore.storeProofs`). */
export type SettledProof = Exclude<CredentialProof, { state: 'pending' }>

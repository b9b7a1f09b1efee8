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
  /**
   * The credential's Data Integrity proof as JSON text (docs/data-integrity.md § Storage): `null` while
   * it is still to be made, `NO_PROOF` (`''`) for a credential signed before clubcred made proofs.
   */
  proof: string | null
}

/** The `proof` of a credential signed before clubcred made Data Integrity proofs: it has no JSON-LD form. */
export const NO_PROOF = ''

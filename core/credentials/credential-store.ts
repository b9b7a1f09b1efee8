import type { CredentialRecord, SettledProof } from './credential-record.ts'

export interface CredentialStore {
  /**
   * Stores the signed credentials of a signing round. One that conflicts (its id exists, or its issuance
   * has a credential, also one earlier in this call) is skipped, not thrown, and the others are stored:
   * a constraint, not a check, so that of workers racing to store a credential for one issuance exactly
   * one stores it. Returns the issuance ids of those stored, in any order.
   */
  insertMany(credentials: CredentialRecord[]): Promise<number[]>
  findById(id: string): Promise<CredentialRecord | null>
  findByIssuance(issuanceId: number): Promise<CredentialRecord | null>
  /** The credentials of these issuances (those that have one), any order. */
  findByIssuances(issuanceIds: number[]): Promise<CredentialRecord[]>
  /** The status-list indexes, in list `statusListId`, of credentials whose issuance is revoked; any order. */
  listRevokedIndexes(statusListId: number): Promise<number[]>
  /**
   * Leases, for the proof round, up to `limit` credentials whose proof is still to be made (`proof` is
   * `pending`) and whose proof lease has ended (never claimed, or its lease ended before `now`), oldest
   * first: each is held until `now + leaseMs` and counts an attempt; returned with the attempts counted so far,
   * this one included. A credential MUST NOT be returned by two claims while its lease runs, also under
   * concurrent claims (concurrent units) from several processes on the storage: those claims pass over
   * the credentials another holds rather than wait for it. A lease that ends (its worker died) makes the
   * credential claimable again.
   */
  claimUnproven(now: number, leaseMs: number, limit: number): Promise<{ credential: CredentialRecord; attempts: number }[]>
  /**
   * Records a failed proof of these credentials (ids without a credential, or whose proof is made, are
   * ignored): the proof stays to be made, `error` is kept for operators, and none is claimed again
   * before `retryAt`.
   */
  releaseUnproven(ids: string[], error: string, retryAt: number): Promise<void>
  /**
   * Settles each credential's proof, if it is still to be made (`pending`), whoever holds its lease: as
   * `made` with the proof's JSON, or as `none` where the proof round found it can never be made
   * (core/signing-queue/settle-unprovable.ts). A settled proof never changes, as the credential does not.
   * Returns how many it settled.
   */
  storeProofs(proofs: { id: string; proof: SettledProof }[]): Promise<number>
}

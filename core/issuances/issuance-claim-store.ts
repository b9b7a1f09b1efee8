import type { IssuanceClaim } from './issuance-claim.ts'

/** Wallets taking credentials (docs/api.md §2.6 `claims`, docs/decisions/0047-claims-and-expiry.md). */
export interface IssuanceClaimStore {
  /**
   * Stores the claim. Returns `true` when it is the issuance's first claim, else `false`: of concurrent
   * calls for one issuance, from any number of processes on the storage, exactly one MUST return `true`
   * (a constraint, not a check), and every claim is stored.
   */
  record(claim: IssuanceClaim): Promise<boolean>
  /** The issuance's claims, oldest first (`at`, then the order stored); `[]` when none. */
  listByIssuance(issuanceId: number): Promise<IssuanceClaim[]>
}

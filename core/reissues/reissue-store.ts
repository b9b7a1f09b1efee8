import type { CredentialRecord } from '../credentials/credential-record.ts'
import type { CredentialVersion, IssuanceAmendment, ReissueRecord, SupersedeOutcome } from './reissue-record.ts'

/**
 * Reissues and the versions of credentials (docs/decisions/0046-reissue.md). A store of its own, beside
 * issuances and credentials, so that what a reissue adds lives in tables (and files) of its own.
 */
export interface ReissueStore {
  /**
   * Writes the amendment's fields on the club's issuance when it is not revoked; returns whether it did
   * (`false`, changing nothing, when absent, of another club or revoked). The derived columns an adapter
   * keeps (the issuance's `validUntil` for the status filters) follow `expiresAt`.
   */
  amend(club: string, issuanceId: number, amendment: IssuanceAmendment): Promise<boolean>
  /**
   * Queues a fresh signing job for the issuance unless it has one; harmless when it has (that job
   * signs the issuance as it is when claimed). MUST NOT throw on an existing job, also under concurrent
   * calls, and MUST wait for (not pass over) a unit that is removing the issuance's job, so that the
   * job it then inserts is not removed by that unit.
   */
  queueSigning(issuanceId: number, club: string): Promise<void>
  /** Records an accepted reissue. */
  insert(record: ReissueRecord): Promise<void>
  /**
   * The club's reissues that name any of these issuances, as `issuanceId` or as `previousIssuanceId`,
   * in the order they were recorded; `[]` when none.
   */
  listByIssuances(club: string, issuanceIds: number[]): Promise<ReissueRecord[]>
  /**
   * Stores `next` as the newest version of the credential `next.id`, if the stored credential of that id
   * is still the one whose JWT is `previousJwt` (compare-and-set): the stored version is kept, unchanged
   * and with its proof, as an earlier version (numbered one above the earlier ones), and the credential
   * takes `next`'s `jwt`, `issuedAt` and `validUntil`, its proof to be made (`proof` null, no lease).
   * Its id, issuance and status-list slot never change. Returns `outdated`, changing nothing, when
   * there is no such credential or its JWT is another, and `proving`, changing nothing, when the proof
   * round's lease on it runs at `now` with its proof still to be made (a proof made for the old JWT must
   * not land on the new one). Of concurrent calls with one `previousJwt` at most one is `superseded`.
   */
  supersede(next: CredentialRecord, previousJwt: string, now: number): Promise<SupersedeOutcome>
  /** The credential's earlier versions, newest (highest `version`) first; `[]` when it has none. */
  listEarlierVersions(credentialId: string): Promise<CredentialVersion[]>
}

import type { Issuance } from '../issuances/issuance.ts'
import type { CredentialRecord } from '../credentials/credential-record.ts'

/**
 * One accepted reissue (docs/decisions/0046-reissue.md): of the issuance `issuanceId` itself (a new
 * version of its credential, `previousIssuanceId` null), or of `previousIssuanceId` to the new
 * issuance `issuanceId` (a re-route: another recipient, another credential).
 */
export interface ReissueRecord {
  club: string
  /** The issuance that holds the credential after the reissue. */
  issuanceId: number
  /** The issuance revoked by a re-route, or `null` for a new version. */
  previousIssuanceId: number | null
  /** Staff's reason (at most 500 characters): kept for them, never on a public surface. */
  reason: string | null
  /**
   * A re-route's `awardedDate` (ms): the date the earlier credential was first awarded, engraved into
   * the new issuance's credential; `null` for a new version (its credential tells) or when the earlier
   * issuance had no credential yet.
   */
  awardedAt: number | null
  reissuedAt: number
}

/** What a reissue changes on an issuance: the values its next credential (or version) engraves. */
export type IssuanceAmendment = Pick<Issuance, 'recipient' | 'evidences' | 'expiresAt' | 'snapshotId' | 'mode'>

/** An earlier version of a credential, kept unchanged when a newer one took its place. */
export interface CredentialVersion extends CredentialRecord {
  /** 1 for the first version signed, counting up. */
  version: number
}

/**
 * What `ReissueStore.supersede` did: `superseded` stored the new version; `outdated` changed nothing
 * because the credential is no longer the version the new one was built on (a job run twice);
 * `proving` changed nothing because the proof round holds the current version (retry later).
 */
export type SupersedeOutcome = 'superseded' | 'outdated' | 'proving'

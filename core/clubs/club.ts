/** A club: the organisation that issues. docs/api.md §2.1. */
export interface Club {
  /** The `{clubDomain}` of paths: a DNS label (it is also the share-page subdomain). */
  domain: string
  name: string
  /** Whether issuance is allowed. */
  canIssue: boolean
  /** The commercial trust attestation of docs/api.md §2.11, set by the platform operator (`club verify`). */
  issuerVerified: boolean
  /** Milliseconds since the epoch. */
  createdAt: number
}
